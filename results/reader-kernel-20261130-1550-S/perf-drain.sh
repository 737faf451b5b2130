#!/bin/bash
# One 2 M-event STORE_ROW at-least-once drain into PostgreSQL; perf samples the ingestion process (kernel
# and user, call graphs) for 10 s from 12 s after the ingestion JVM's start (inside the measurement window).
cd /tmp/benchA
(
  for i in $(seq 600); do pid=$(pgrep -f "io.streamlab.cli.Main ingest" | head -1); [ -n "$pid" ] && break; sleep 0.5; done
  echo "ingestion pid $pid $(date -u +%H:%M:%S)"
  sleep ${DELAY:-12}
  echo "perf from $(date -u +%H:%M:%S)"
  perf record -e cpu-clock -F 999 -g -p $pid -o /tmp/s/kern/perf.data -- sleep 10 2>&1 | tail -2
) > /tmp/s/kern/perf.out 2>&1 &
scripts/bench-vs-peer --events=2000000 --skipPeer --formats=STORE_ROW --variants=STORAGE_API_AT_LEAST_ONCE --stores=postgres --threads --out=/tmp/s/kern/drain.json > /tmp/s/kern/drain.txt 2>&1
wait
