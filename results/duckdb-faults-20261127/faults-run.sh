#!/bin/bash
# who takes the page faults during an at-least-once DuckDB drain: perf record -e page-faults (every 16th) with DWARF call graphs, 8 s
cd ${DIR:-/work/main}
OUT=${OUT:-/tmp/prof/faults}
scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads > $OUT.log 2>&1 &
B=$!
# wait for the drain: the ingestion JVM's append thread exists and is busy
for i in $(seq 1 600); do
  P=$(pgrep -f "streamlab.*ingest" | head -1)
  if [ -n "$P" ] && ls /proc/$P/task 2>/dev/null | while read t; do cat /proc/$P/task/$t/comm; done 2>/dev/null | grep -q streamlab-appen; then break; fi
  sleep 1
done
sleep 12
echo "pid $P" > $OUT.pid
perf stat -e page-faults,minor-faults,major-faults -p $P -- sleep 20 > $OUT.stat 2>&1
perf record -e page-faults -c 16 --call-graph dwarf,16384 -p $P -o $OUT.perf.data -- sleep 6 > /dev/null 2>&1
wait $B
