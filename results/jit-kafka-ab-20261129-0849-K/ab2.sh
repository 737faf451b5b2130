#!/bin/bash
# A = main (500 records a poll); B = 2000 records a poll; C = C2 thresholds x0.1 for org.apache.kafka only; D = x0.1 for all
here="$(cd "$(dirname "$0")" && pwd)"
declare -A DIR OPTS
DIR[A]=/tmp/bench; OPTS[A]=""
DIR[B]=/tmp/bench2; OPTS[B]=""
DIR[C]=/tmp/bench; OPTS[C]="-XX:CompileCommand=CompileThresholdScaling,org.apache.kafka.*::*,0.1"
DIR[D]=/tmp/bench; OPTS[D]="-XX:CompileThresholdScaling=0.1"
i=0
for v in A B C D D C B A; do
  i=$((i+1))
  for mode in STORAGE_API_AT_LEAST_ONCE STORAGE_WRITE_API@0; do
   tag=$i-$v-${mode%%@*}
   "$here"/../jit-ab-20261129-0831-K/tseries.py /tmp/k/ab2/ts-$tag.jsonl &
   sp=$!
   cd ${DIR[$v]}
   STREAMLAB_INGEST_JAVA_OPTS="${OPTS[$v]}" scripts/bench-vs-peer --events=2000000 --skipPeer --formats=STORE_ROW --variants=$mode --stores=postgres --out=/tmp/k/ab2/$tag.json > /tmp/k/ab2/$tag.log 2>&1
   wait $sp
   R=$(grep -o '/[a-z0-9/]*runs/bench-vs-peer-[0-9-]*' /tmp/k/ab2/$tag.log | head -1)
   R=$(ls -d $R/streamlab-*/ | head -1)
   echo "== $tag $(date -u +%H:%M:%S) $(grep '| postgres' /tmp/k/ab2/$tag.log | head -1)"
   python3 "$here"/../jit-ab-20261129-0831-K/win.py $R /tmp/k/ab2/ts-$tag.jsonl 2>/dev/null | sed -n 3,9p
  done
done
