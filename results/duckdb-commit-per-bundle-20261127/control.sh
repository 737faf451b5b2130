#!/usr/bin/env bash
# Main's defaults again after ckpt.sh, the same hour: two at-least-once DuckDB drains, 2 M events.
for round in 1 2; do
  echo "=== control $round default $(date -u +%H:%M:%S)"
  flock -x /tmp/streamlab-cpu.lock scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
    --variants=STORAGE_API_AT_LEAST_ONCE --stores=duckdb --threads 2>&1 \
    | grep -E "thread-cpu:|C CompilerThre|Source: Read|GC Thread|^\| duckdb|streamlab-appen|KafkaConsumerPo|rror|lost|results"
done
