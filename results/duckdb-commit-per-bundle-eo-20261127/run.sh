#!/usr/bin/env bash
# --commitPerBundle, keyed writers too: exactly-once (STORAGE_WRITE_API untriggered) DuckDB drains of 2 M events, main's defaults
# against --commitPerBundle with bundles of exactly two row groups appended in 8,192-row batches.
# Each drain under the exclusive lock (nothing else running). Run from the repo root.
for round in 1 2; do
for cfg in default commitPerBundle; do
  extra=()
  if [ $cfg = commitPerBundle ]; then
    extra=(--arg=--commitPerBundle --arg=--appendBatchSize=8192 --arg=--maxBundleSize=245760 --arg=--maxBundleTimeMills=20000)
  fi
  echo "=== round $round $cfg $(date -u +%H:%M:%S)"
  flock -x /tmp/streamlab-cpu.lock scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
    --variants=STORAGE_WRITE_API@0 --stores=duckdb --threads "${extra[@]}" 2>&1 \
    | grep -E "thread-cpu:|C CompilerThre|Source: Read|GC Thread|^\| duckdb|streamlab-appen|KafkaConsumerPo|rror|lost|results"
done
done
