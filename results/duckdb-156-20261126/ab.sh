#!/bin/bash
# DuckDB drains, main (1.4.3) vs /work/exp (1.5.6), alternated
run() { local name=$1 dir=$2; echo "== $name $(date +%T)"; cd $dir
  python3 /tmp/dk/watch.py /tmp/dk/w-$name.txt & wp=$!
  scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0 --stores=duckdb --threads --out=/tmp/dk/v-$name.json > /tmp/dk/v-$name.log 2>&1
  kill $wp 2>/dev/null
  grep "^| duckdb" /tmp/dk/v-$name.log; grep "thread-cpu" /tmp/dk/v-$name.log; rm -rf runs/bench-vs-peer-*; }
for i in 1 2; do
run d143-$i /work/main
run d156-$i /work/exp
done
