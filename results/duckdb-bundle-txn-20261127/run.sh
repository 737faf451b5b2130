#!/usr/bin/env bash
# PROTOTYPE (worktree /work/exp, not on main): one DuckDB transaction per bundle, batches of 8,192
# rows, bundles of exactly two row groups; against main's defaults. At-least-once, 2 M events.
cd /work/exp
for round in 1 2; do
for cfg in default bundletxn; do
  extra=(); unset STREAMLAB_INGEST_JAVA_OPTS
  if [ $cfg = bundletxn ]; then
    extra=(--arg=--appendBatchSize=8192 --arg=--maxBundleSize=245760 --arg=--maxBundleTimeMills=20000)
    export STREAMLAB_INGEST_JAVA_OPTS="-Dstreamlab.duckdbBundleTxn=true"
  fi
  echo "=== round $round $cfg $(date -u +%H:%M:%S)"
  flock -x /tmp/streamlab-cpu.lock scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
    --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads "${extra[@]}" 2>&1 \
    | grep -E "thread-cpu:|C CompilerThre|Source: Read|GC Thread|^\| duckdb|streamlab-appen|KafkaConsumerPo|rror"
done
done
