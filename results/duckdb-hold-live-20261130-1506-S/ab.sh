#!/bin/bash
# A = --holdWhileBehind=false, B = the default (hold); ./streamlab run defaults; thread-cpu beside each run
cd /tmp/benchA
for v in $ORDER; do
  extra=""; [ $v = A ] && extra="--holdWhileBehind=false"; [ $v = C ] && extra="$CARG"
  t=$(date -u +%H%M%S)
  echo "== $v $t ./streamlab run $extra"
  scripts/thread-cpu --out=/tmp/s/live2/threads-$v-$t.json > /tmp/s/live2/threads-$v-$t.txt 2>&1 &
  tc=$!
  ./streamlab run $extra > /tmp/s/live2/run-$v-$t.log 2>&1
  echo "rc $?"
  wait $tc
done
