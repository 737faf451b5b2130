#!/bin/bash
# one DuckDB at-least-once drain, perf on the ingestion JVM for 12 s of its window
cd /tmp/benchA
scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads --out=/tmp/prof/bench.json > /tmp/prof/run.txt 2>&1 &
b=$!
pid=""
for i in $(seq 1 600); do
  pid=$(pgrep -f -- "-XX:-TieredCompilation.*io.streamlab.cli.Main" | head -1)
  [ -n "$pid" ] && break; sleep 0.2
done
echo "ingest pid $pid" > /tmp/prof/perf.log
# wait for the window: the status says writing; simply wait until the reading thread has used 6 CPU-s
for i in $(seq 1 600); do
  tid=$(for t in /proc/$pid/task/*; do [ "$(cat $t/comm 2>/dev/null)" = "Source: Read/Po" ] && basename $t; done | head -1)
  if [ -n "$tid" ]; then
    ticks=$(awk '{print $14+$15}' /proc/$pid/task/$tid/stat 2>/dev/null)
    [ "${ticks:-0}" -gt 600 ] && break
  fi
  sleep 0.2
done
echo "reading tid $tid at $(date +%T)" >> /tmp/prof/perf.log
perf record -F 499 -g -p $pid -o /tmp/prof/perf.data -- sleep 12 >> /tmp/prof/perf.log 2>&1
wait $b
echo "done $(date +%T)" >> /tmp/prof/perf.log
