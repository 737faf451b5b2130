#!/usr/bin/env bash
# A/B: appends beside the reader (default) vs inline (-Dstreamlab.inlineAppends=true), 2 M-event PostgreSQL drains, alternated
set -u
cd /tmp/ab
for r in 1 2 3; do
  for v in overlap inline; do
    if [ $v = inline ]; then export STREAMLAB_INGEST_JAVA_OPTS=-Dstreamlab.inlineAppends=true; else unset STREAMLAB_INGEST_JAVA_OPTS; fi
    echo "=== round $r $v $(date -u +%H:%M:%S)"
    scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
      --variants=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0 --stores=postgres --threads \
      --out=/tmp/abres/$v-$r.json > /tmp/abres/$v-$r.log 2>&1
    grep -E "STORAGE_API_AT_LEAST_ONCE|STORAGE_WRITE_API" /tmp/abres/$v-$r.log | tail -4
  done
done
