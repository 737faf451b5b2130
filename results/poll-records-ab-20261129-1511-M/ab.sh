#!/bin/bash
# A = main 81d6532 (/tmp/benchA); B = the same with MAX_POLL_RECORDS 128 (/tmp/benchB); order A B B A A B
declare -A DIR
DIR[A]=/tmp/benchA; DIR[B]=/tmp/benchB
i=0
for v in A B B A A B; do
  i=$((i+1))
  for mode in STORAGE_API_AT_LEAST_ONCE STORAGE_WRITE_API@0; do
    tag=$i-$v-${mode%%@*}
    cd ${DIR[$v]}
    scripts/bench-vs-peer --events=2000000 --skipPeer --formats=STORE_ROW --variants=$mode --stores=postgres --threads --out=/tmp/k/ab/$tag.json > /tmp/k/ab/$tag.log 2>&1
    echo "== $tag $(date -u +%H:%M:%S) $(grep '| postgres' /tmp/k/ab/$tag.log | head -1)"
    sed -n '/window/,/^$/p' /tmp/k/ab/$tag.log | head -9
  done
done
