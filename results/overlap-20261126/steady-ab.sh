#!/bin/bash
J="jdbc:postgresql://127.0.0.1:5432/streamlab_bench?user=postgres"
run() { local name=$1 dir=$2; echo "== $name $(date +%T)"; cd $dir
  ./streamlab run --mode=steady --ratePerSec=${RATE:-60000} --warmup=40s --duration=30s --store=postgres --jdbcUrl="$J" \
    --writeMethod=${WM:-STORAGE_API_AT_LEAST_ONCE} ${TRIG} --formatToStore=AVRO_GENERIC_RECORD --runDir=/tmp/dk/ov-$name > /tmp/dk/ov-$name.log 2>&1
  grep -E "^ingestion |^end-to-end|^verification|  stage (read|write)" /tmp/dk/ov-$name.log
  rm -rf /tmp/dk/ov-$name/kafka
  psql -h 127.0.0.1 -U postgres -d streamlab_bench -Atc "select format('drop table %I;', tablename) from pg_tables where schemaname='public'" | psql -q -h 127.0.0.1 -U postgres -d streamlab_bench; }
for i in 1 2; do
run base-$TAG-$i /work/exp
run ovl-$TAG-$i /work/main
done
