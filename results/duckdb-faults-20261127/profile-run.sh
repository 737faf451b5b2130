#!/bin/bash
# perf profile of a whole at-least-once DuckDB drain (2 M events), machine-wide, 499 Hz
cd ${DIR:-/work/main}
OUT=${OUT:-/tmp/prof/al}
export STREAMLAB_INGEST_JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer $EXTRA"
perf record -a -g -F 499 -o $OUT.perf.data -- sleep 10000 > /dev/null 2>&1 &
PERF=$!
scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD --variants=${VARIANT:-STORAGE_API_AT_LEAST_ONCE} --stores=duckdb --threads > $OUT.log 2>&1
kill -INT $PERF; wait $PERF
perf report -i $OUT.perf.data --no-children --sort comm,dso -g none 2>/dev/null | grep -v "^#" | head -30 > $OUT.dso.txt
perf report -i $OUT.perf.data --no-children --sort comm,sym -g none 2>/dev/null | grep -v "^#" | head -120 > $OUT.sym.txt
