#!/usr/bin/env bash
# A/B of the ingestion JVM's C2 CompileThreshold (C2 alone; HotSpot's default 10000), drains alternated.
cd /work/main
for round in 1 2; do
  for t in default 30000 100000; do
    if [ $t = default ]; then unset STREAMLAB_INGEST_JAVA_OPTS; else export STREAMLAB_INGEST_JAVA_OPTS="-XX:CompileThreshold=$t"; fi
    echo "=== round $round CompileThreshold=$t $(date -u +%H:%M:%S)"
    flock -x /tmp/streamlab-cpu.lock scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
      --variants=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0 --stores=postgres --threads 2>&1 \
      | grep -E "thread-cpu:|C CompilerThre|Source: Read|GC Thread|^\| postgres|streamlab-appen|KafkaConsumerPo"
  done
done
