#!/bin/bash
# A/B: main (+ the embedded broker flushes its log every second) vs base (133b3ba): steady runs at 24 k/s
url="jdbc:postgresql://127.0.0.1:5432/streamlab_bench?user=postgres"
drop() { psql -h 127.0.0.1 -U postgres -d streamlab_bench -Atc "select format('drop table %I;', tablename) from pg_tables where schemaname='public'" | psql -q -h 127.0.0.1 -U postgres -d streamlab_bench; }
for i in 1 2; do for repo in main base; do
  drop
  rd=/tmp/ab/s2-$repo-$i; rm -rf $rd
  python3 /tmp/inv/sample.py $rd-sample.txt & sp=$!
  s=$(date +%T)
  flock -x /tmp/streamlab-cpu.lock /work/$repo/streamlab run --mode=steady --ratePerSec=24000 --warmup=60s --duration=60s --store=postgres --jdbcUrl="$url" --writeMethod=STORAGE_API_AT_LEAST_ONCE --formatToStore=AVRO_GENERIC_RECORD --runDir=$rd > $rd.log 2>&1
  kill $sp
  cp $rd-sample.txt /tmp/inv/s2-$repo-$i-sample.txt
  echo "steady $repo run $i $s-$(date +%T) $(grep -o 'p50 .*max [0-9,]* ms' $rd.log) | $(grep -o 'lost [0-9]* | duplicated in the table [0-9]*' $rd.log) | $(python3 /tmp/inv/ana.py s2-$repo-$i | tr '\n' ' ')"
done; done
