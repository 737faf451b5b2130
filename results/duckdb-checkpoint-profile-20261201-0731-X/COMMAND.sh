#!/bin/bash
# one DuckDB at-least-once drain (main's defaults, or $EXTRA), perf on the ingestion JVM for 10 s inside its window
cd /tmp/benchA
scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads $EXTRA --out=/tmp/prof/bench3$TAG.json > /tmp/prof/run3$TAG.txt 2>&1 &
b=$!
sleep 3
for i in $(seq 1 900); do
  pid=$(pgrep -f -- "-XX:-TieredCompilation.*io.streamlab.cli.Main" | head -1)
  [ -n "$pid" ] && [ -d /proc/$pid ] && break; sleep 0.2
done
echo "ingest pid $pid" > /tmp/prof/perf3$TAG.log
for i in $(seq 1 1200); do
  tid=$(for t in /proc/$pid/task/*; do [ "$(cat $t/comm 2>/dev/null)" = "Source: Read/Po" ] && basename $t; done | head -1)
  if [ -n "$tid" ]; then
    ticks=$(awk '{print $14+$15}' /proc/$pid/task/$tid/stat 2>/dev/null)
    [ "${ticks:-0}" -gt 250 ] && break
  fi
  sleep 0.2
done
echo "reading tid $tid at $(date +%T.%N)" >> /tmp/prof/perf3$TAG.log
perf record -F 499 -g -p $pid -o /tmp/prof/perf3$TAG.data -- sleep 10 >> /tmp/prof/perf3$TAG.log 2>&1
echo "end $(date +%T.%N)" >> /tmp/prof/perf3$TAG.log
wait $b
