#!/bin/bash
# A/B: main (backend_flush_after) vs base (bcea48b): a 2 M drain (PG CPU) and a steady run at 24 k/s (p99, checkpoint syncs)
url="jdbc:postgresql://127.0.0.1:5432/streamlab_bench?user=postgres"
drop() { psql -h 127.0.0.1 -U postgres -d streamlab_bench -Atc "select format('drop table %I;', tablename) from pg_tables where schemaname='public'" | psql -q -h 127.0.0.1 -U postgres -d streamlab_bench; }
for i in 1 2; do for repo in main base; do
  drop
  a=$(/tmp/pgcpu)
  line=$(flock -x /tmp/streamlab-cpu.lock /work/$repo/scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE --stores=postgres 2>&1 | grep "^| postgres")
  b=$(/tmp/pgcpu)
  echo "drain  $repo run $i $(date +%T) pg-cpu-s=$(echo "$b - $a" | bc) $line"
  drop
  s=$(date +%H:%M:%S)
  rd=/tmp/ab/steady-$repo-$i; rm -rf $rd
  flock -x /tmp/streamlab-cpu.lock /work/$repo/streamlab run --mode=steady --ratePerSec=24000 --warmup=60s --duration=60s --store=postgres --jdbcUrl="$url" --writeMethod=STORAGE_API_AT_LEAST_ONCE --formatToStore=AVRO_GENERIC_RECORD --runDir=$rd > $rd.log 2>&1
  e=$(date +%H:%M:%S)
  syncs=$(awk -v s="$s" -v e="$e" '$2>s && $2<e && /checkpoint complete/' /var/log/postgresql/postgresql-15-main.log | grep -o "sync=[0-9.]*" | cut -d= -f2 | tr '\n' ' ')
  echo "steady $repo run $i $s-$e $(grep -o 'p50 .*max [0-9,]* ms' $rd.log) | $(grep -o 'lost [0-9]* | duplicated in the table [0-9]*' $rd.log) | checkpoint syncs (s): $syncs"
done; done
