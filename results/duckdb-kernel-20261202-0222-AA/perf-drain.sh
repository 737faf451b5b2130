#!/bin/bash
# One 2 M-event AVRO_GENERIC_RECORD at-least-once drain into DuckDB (the 6 s default); perf samples the ingestion
# process (kernel and user, call graphs) for 15 s from DELAY s after the ingestion JVM's start (inside the window).
OUT=${OUT:-/tmp/aa/kern}
cd /tmp/benchB  # a clone of c9bf01c
(
  for i in $(seq 600); do pid=$(pgrep -f "io.streamlab.cli.Main ingest" | head -1); [ -n "$pid" ] && break; sleep 0.5; done
  echo "ingestion pid $pid $(date -u +%H:%M:%S.%N)"
  sleep ${DELAY:-14}
  echo "perf from $(date -u +%H:%M:%S.%N)"
  perf record -e cpu-clock -F 999 -g -p $pid -o $OUT/perf.data -- sleep 15 2>&1 | tail -2
  echo "perf to $(date -u +%H:%M:%S.%N)"
) > $OUT/perf.out 2>&1 &
scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads --out=$OUT/drain.json > $OUT/drain.txt 2>&1
wait
