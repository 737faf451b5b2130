#!/bin/bash
# Steady runs alternated between main before the fix (360aa86 in the worktree /work/exp) and with
# it (/work/main): RATE events/s (default 45000) into PostgreSQL, WM (default at-least-once), a
# 40 s warm-up then a 30 s window. Under flock -x /tmp/streamlab-cpu.lock, nothing else running.
out=$(cd "$(dirname "$0")" && pwd)
J="jdbc:postgresql://127.0.0.1:5432/streamlab_bench?user=postgres"
run() { local name=$1 dir=$2; echo "== $name $(date +%T)"; cd $dir
  ./streamlab run --mode=steady --ratePerSec=${RATE:-45000} --warmup=40s --duration=30s --store=postgres --jdbcUrl="$J" \
    --writeMethod=${WM:-STORAGE_API_AT_LEAST_ONCE} ${TRIG} --formatToStore=AVRO_GENERIC_RECORD --runDir=/tmp/dk/st-$name > /tmp/dk/st-$name.log 2>&1
  grep -E "^ingestion |^end-to-end|^verification|  stage (read|write)" /tmp/dk/st-$name.log
  cp /tmp/dk/st-$name/results.json $out/$name.results.json
  rm -rf /tmp/dk/st-$name/kafka
  psql -h 127.0.0.1 -U postgres -d streamlab_bench -Atc "select format('drop table %I;', tablename) from pg_tables where schemaname='public'" | psql -q -h 127.0.0.1 -U postgres -d streamlab_bench; }
for i in ${ROUNDS:-1 2}; do
run base-$TAG-$i /work/exp
run fix-$TAG-$i /work/main
done
