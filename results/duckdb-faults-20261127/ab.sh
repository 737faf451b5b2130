#!/bin/bash
# A: main; B: WAL 256MB + jemalloc keeps freed pages + DuckDB never flushes its allocator; C: WAL 256MB only
run() { # name dir env...
  local name=$1 dir=$2; shift 2
  echo "== $name $(date +%T)"
  (cd $dir && env "$@" scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads 2>&1 | grep -E "^\| duckdb|thread-cpu:|streamlab-appen|failed")
  rm -rf $dir/runs/bench-vs-peer-*
}
ALLOC="-Dstreamlab.duckdbSet=SET~allocator_flush_threshold='16GB';SET~allocator_bulk_deallocation_flush_threshold='16GB'"
for i in 1 2; do
run A-$i /work/main X=1
run B-$i /work/exp STREAMLAB_INGEST_JAVA_OPTS="-Dstreamlab.duckdbWal=256MB $ALLOC" DUCKDB_JE_MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1
run C-$i /work/exp STREAMLAB_INGEST_JAVA_OPTS="-Dstreamlab.duckdbWal=256MB"
done
