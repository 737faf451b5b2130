#!/bin/bash
# A = main 1ead11f (identity in three headers), B = identity in the record key; alternated A B B A
set -u
for x in A B B A; do
  d=/tmp/bench; [ $x = B ] && d=/tmp/benchB
  n=$((${n:-0}+1))
  echo "== run $n build $x $(date -u +%H:%M:%S)"
  (cd $d && scripts/bench-vs-peer --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0 --stores=postgres --threads --out=/tmp/ab/run$n-$x.json) > /tmp/ab/run$n-$x.log 2>&1
  grep -E '^\| postgres|Source: Read|KafkaConsumerPo|streamlab-appen|GC Thread|C CompilerThre' /tmp/ab/run$n-$x.log
done
