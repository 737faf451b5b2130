#!/bin/bash
for v in A B B A; do
  d=/tmp/benchA; [ $v = B ] && d=/tmp/benchE
  t=$(date -u +%H%M%S)
  echo "== $v $t $d ./streamlab run --writeMethod=STORAGE_WRITE_API --triggeringFrequencySec=0"
  (cd $d && ./streamlab run --writeMethod=STORAGE_WRITE_API --triggeringFrequencySec=0 > /tmp/live/run-$v-$t.log 2>&1; echo "rc $?")
done
