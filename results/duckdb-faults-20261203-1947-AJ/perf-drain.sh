#!/bin/bash
# who takes the page faults in an at-least-once DuckDB drain (held appends, the 6 s default): perf record -e page-faults
# (every 16th) with DWARF call graphs for 6 s inside the measurement window
OUT=/tmp/aj/faults
cd /tmp/benchA
(
  for i in $(seq 600); do pid=$(pgrep -f "io.streamlab.cli.Main ingest" | head -1); [ -n "$pid" ] && break; sleep 0.5; done
  echo "ingestion pid $pid $(date -u +%H:%M:%S.%N)"
  sleep ${DELAY:-34}
  echo "perf from $(date -u +%H:%M:%S.%N)"
  perf record -e page-faults -c 16 --call-graph dwarf,16384 -p $pid -o $OUT/perf.data -- sleep 6 2>&1 | tail -2
  echo "perf to $(date -u +%H:%M:%S.%N)"
) > $OUT/perf.out 2>&1 &
scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads --out=$OUT/drain.json > $OUT/drain.txt 2>&1
wait
