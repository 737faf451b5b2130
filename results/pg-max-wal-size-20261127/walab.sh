#!/bin/bash
# A/B of PostgreSQL's max_wal_size under a steady exactly-once run: alternated, each run after a CHECKPOINT.
# usage: walab.sh RATE OUTDIR [ROUNDS]
set -u
rate=$1; out=$2; rounds=${3:-3}; mkdir -p "$out"
pg() { psql -h 127.0.0.1 -U postgres -Atqc "$1"; }
for i in $(seq 1 "$rounds"); do
  for wal in 1GB 8GB; do
    pg "ALTER SYSTEM SET max_wal_size='$wal'"; pg "select pg_reload_conf()" >/dev/null; sleep 1
    pg "CHECKPOINT"
    before=$(pg "select checkpoints_timed + checkpoints_req from pg_stat_bgwriter")
    /tmp/wt/streamlab run --mode=steady --ratePerSec="$rate" --warmup=20s --duration=30s --store=postgres \
      --jdbcUrl='jdbc:postgresql://127.0.0.1:5432/streamlab_bench?user=postgres' \
      --writeMethod=STORAGE_WRITE_API --triggeringFrequencySec=0 --formatToStore=AVRO_GENERIC_RECORD \
      --runDir="$out/$wal-$i" > "$out/$wal-$i.log" 2>&1
    rc=$?
    after=$(pg "select checkpoints_timed + checkpoints_req from pg_stat_bgwriter")
    echo "$(date -u +%H:%M:%S) round $i max_wal_size=$wal rc=$rc checkpoints_during=$((after - before)) $(python3 -c "
import json,sys
r=json.load(open('$out/$wal-$i/results.json'))
l=r['latencyMillis']; t=r['table']
print('p50', l.get('p50'), 'p99', l.get('p99'), 'lost', t['lost'], 'dup', t['duplicated'], 'ingested/s', round(r['ingestion']['eventsPerSec']))
" 2>&1) seconds>250ms $(/tmp/wt/scripts/latency-seconds --no-header "$out/$wal-$i" | awk -F, '$5>250' | wc -l)/$(/tmp/wt/scripts/latency-seconds --no-header "$out/$wal-$i" | wc -l)" | tee -a "$out/summary.txt"
  done
done
pg "ALTER SYSTEM RESET max_wal_size"; pg "select pg_reload_conf()" >/dev/null
echo "max_wal_size back to $(pg 'show max_wal_size')" | tee -a "$out/summary.txt"
