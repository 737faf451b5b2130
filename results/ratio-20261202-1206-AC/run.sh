#!/bin/bash
# B A A B, one round each, the ratio command
cd /tmp/ratio
n=0
for v in B A A B; do
  n=$((n+1))
  d=/tmp/bench$v
  echo "== $n-$v $(date +%H:%M:%S)" >> order.txt
  (cd $d && scripts/bench-vs-peer --formats=STORE_ROW --variants=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0 --stores=postgres \
    --threads --peer=/work/shared/peers/flink-native --rounds=1 --out=/tmp/ratio/$n-$v.json > /tmp/ratio/$n-$v.txt 2>&1)
  echo "rc $?" >> order.txt
done
