#!/usr/bin/env bash
# What --commitPerBundle's gain comes from: bundle shapes at-least-once, 2 M events, DuckDB. The
# 2 s checkpoints end bundles too (each of the 2 readers then holds ~100 k rows, under a row group).
for round in 1 2; do
for cfg in "ckpt30s" "defaultBundles" "ckpt30s-batch50k"; do
  case $cfg in
    ckpt30s) extra=(--arg=--commitPerBundle --arg=--appendBatchSize=8192 --arg=--maxBundleSize=245760 --arg=--maxBundleTimeMills=20000 --arg=--checkpointIntervalMs=30000);;
    defaultBundles) extra=(--arg=--commitPerBundle);;
    ckpt30s-batch50k) extra=(--arg=--commitPerBundle --arg=--maxBundleSize=245760 --arg=--maxBundleTimeMills=20000 --arg=--checkpointIntervalMs=30000);;
  esac
  echo "=== round $round $cfg $(date -u +%H:%M:%S) ${extra[*]}"
  flock -x /tmp/streamlab-cpu.lock scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
    --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads "${extra[@]}" 2>&1 \
    | grep -E "thread-cpu:|C CompilerThre|Source: Read|GC Thread|^\| duckdb|streamlab-appen|KafkaConsumerPo|rror|lost|results"
done
done
