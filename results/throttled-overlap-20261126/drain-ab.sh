#!/bin/bash
# Drains alternated between main before the fix (360aa86, built in the worktree /work/exp) and
# with it (/work/main): 2 M events, both modes, PostgreSQL and DuckDB. Run under
# flock -x /tmp/streamlab-cpu.lock with nothing else running.
out=$(cd "$(dirname "$0")" && pwd)
run() { local name=$1 dir=$2; echo "== $name $(date +%T)"; cd $dir
  scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
    --variants=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0 --stores=postgres,duckdb --threads \
    --out=$out/drains-$name.json > /tmp/dk/dr-$name.log 2>&1
  grep -E "^\| (postgres|duckdb)" /tmp/dk/dr-$name.log; rm -rf runs/bench-vs-peer-*; }
for i in ${ROUNDS:-1}; do
run base-$i /work/exp
run fix-$i /work/main
done
