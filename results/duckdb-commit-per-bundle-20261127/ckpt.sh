#!/usr/bin/env bash
# --commitPerBundle: bundles cut by the default 2 s checkpoints (each of the 2 readers' bundles
# ~100 k rows, under a DuckDB row group) against bundles of exactly two row groups (checkpoints
# every 30 s), alternated, three rounds; at-least-once, 2 M events, DuckDB.
common=(--arg=--commitPerBundle --arg=--appendBatchSize=8192 --arg=--maxBundleSize=245760 --arg=--maxBundleTimeMills=20000)
for round in 1 2 3; do
for cfg in ckpt2s ckpt30s; do
  extra=("${common[@]}")
  [ $cfg = ckpt30s ] && extra+=(--arg=--checkpointIntervalMs=30000)
  echo "=== round $round $cfg $(date -u +%H:%M:%S) ${extra[*]}"
  flock -x /tmp/streamlab-cpu.lock scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
    --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads "${extra[@]}" 2>&1 \
    | grep -E "thread-cpu:|C CompilerThre|Source: Read|GC Thread|^\| duckdb|streamlab-appen|KafkaConsumerPo|rror|lost|results"
done
done
