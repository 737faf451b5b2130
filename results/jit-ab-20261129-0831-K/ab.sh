#!/bin/bash
# A/B/C of ingest JVM JIT settings: one drain per mode per run, alternated
here="$(cd "$(dirname "$0")" && pwd)"
cd /tmp/bench
declare -A OPTS
OPTS[A]=""
OPTS[B]="-XX:CompileThresholdScaling=0.1"
OPTS[C]="-XX:+TieredCompilation"
for round in 1 2 3; do
 for v in A B C; do
  for mode in STORAGE_API_AT_LEAST_ONCE STORAGE_WRITE_API@0; do
   tag=$v-$round-${mode%%@*}
   "$here"/tseries.py /tmp/k/ab/ts-$tag.jsonl &
   sp=$!
   STREAMLAB_INGEST_JAVA_OPTS="${OPTS[$v]}" scripts/bench-vs-peer --events=2000000 --skipPeer --formats=STORE_ROW --variants=$mode --stores=postgres --out=/tmp/k/ab/$tag.json > /tmp/k/ab/$tag.log 2>&1
   wait $sp
   R=$(grep -o '/tmp/bench/runs/bench-vs-peer-[0-9-]*' /tmp/k/ab/$tag.log | head -1)
   R=$(ls -d $R/streamlab-*/ | head -1)
   echo "== $tag $(grep '| postgres' /tmp/k/ab/$tag.log | head -1)"
   python3 "$here"/win.py $R /tmp/k/ab/ts-$tag.jsonl | head -8
  done
 done
done
