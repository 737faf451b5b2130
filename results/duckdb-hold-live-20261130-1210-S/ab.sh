#!/bin/bash
# A = --holdWhileBehind=false, B = the default (hold); ./streamlab run defaults (10,000 events/s into DuckDB, at-least-once)
cd /tmp/benchB
for v in A B B A; do
  extra=""; [ $v = A ] && extra="--holdWhileBehind=false"
  echo "== $v $(date -u +%H:%M:%S) ./streamlab run $extra"
  ./streamlab run $extra > /tmp/s/live/run-$v-$(date -u +%H%M%S).log 2>&1
  echo "rc $?"
done
