#!/bin/bash
# A/B: the polled reader's max.partition.fetch.bytes 8 MB (A, as landed) against 1 MB (B)
for k in 1 2 3; do
  for v in A B; do
    dir=/tmp/bench; [ $v = B ] && dir=/tmp/benchB
    (cd $dir && scripts/bench-vs-peer --skipPeer --formats=STORE_ROW --variants=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0 --stores=postgres --threads --out=/tmp/fetch-ab/$v-$k.json > /tmp/fetch-ab/$v-$k.txt 2>&1)
  done
done
for v in A B; do
  dir=/tmp/bench; [ $v = B ] && dir=/tmp/benchB
  (cd $dir && scripts/bench-vs-peer --stores=postgres --latencyOnly --formats=STORE_ROW --out=/tmp/fetch-ab/lat-$v.json > /tmp/fetch-ab/lat-$v.txt 2>&1)
done
