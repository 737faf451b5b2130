#!/bin/bash
# A = the default collector (parallel, one GC thread per core), B = parallel with one GC thread,
# C = the serial collector; main c053e49, alternated A B C C B A
set -u
n=0
for x in A B C C B A; do
  n=$((n+1))
  case $x in A) opts="" ;; B) opts="-XX:ParallelGCThreads=1" ;; C) opts="-XX:+UseSerialGC" ;; esac
  echo "== run $n condition $x ($opts) $(date -u +%H:%M:%S)"
  (cd /tmp/bench && STREAMLAB_INGEST_JAVA_OPTS="$opts" scripts/bench-vs-peer --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0 --stores=postgres --threads --out=/tmp/abgc/run$n-$x.json) > /tmp/abgc/run$n-$x.txt 2>&1
  grep -E '^\| postgres|Source: Read|KafkaConsumerPo|streamlab-appen|GC Thread|VM Thread|C CompilerThre|busy interval' /tmp/abgc/run$n-$x.txt
done
