#!/bin/bash
# A = defaults, B = the ingestion JVM with -Dpekko.scheduler.tick-duration=100ms (Pekko's default 10 ms)
cd /tmp/benchA
out=/tmp/q/ab-pekko; mkdir -p $out
k=0
for v in A B B A A B; do
  k=$((k+1))
  opts=""; [ $v = B ] && opts="-Dpekko.scheduler.tick-duration=100ms"
  STREAMLAB_INGEST_JAVA_OPTS="$opts" scripts/bench-vs-peer --events=1000000 --skipPeer --formats=STORE_ROW --variants=STORAGE_API_AT_LEAST_ONCE --stores=postgres --threads --out=$out/$k-$v-STORAGE_API_AT_LEAST_ONCE.json > $out/$k-$v.log 2>&1
  echo "== $k-$v-STORAGE_API_AT_LEAST_ONCE $(date +%H:%M:%S) $(grep '^| postgres' $out/$k-$v.log)"
  grep -A9 "CPU window" $out/$k-$v.log | sed -n 1,10p
done
scripts/ab-drains --summary $out
