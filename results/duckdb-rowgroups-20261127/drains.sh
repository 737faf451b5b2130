#!/usr/bin/env bash
# An at-least-once DuckDB drain with bundles of exactly two row groups (245,760 rows) appended as
# one transaction each, against the defaults (50 ms bundles), alternated.
cd /work/main
for cfg in default rowgroups; do
  extra=()
  [ $cfg = rowgroups ] && extra=(--arg=--appendBatchSize=245760 --arg=--maxBundleSize=245760 --arg=--maxBundleTimeMills=20000)
  echo "=== $cfg $(date -u +%H:%M:%S)"
  flock -x /tmp/streamlab-cpu.lock scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
    --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads "${extra[@]}" 2>&1 \
    | grep -E "thread-cpu:|C CompilerThre|Source: Read|GC Thread|^\| duckdb|streamlab-appen|KafkaConsumerPo|rror"
done
