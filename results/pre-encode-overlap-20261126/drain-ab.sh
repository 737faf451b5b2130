#!/bin/bash
# Drains alternated between main (built in the worktree /work/exp) and the working tree
# (/work/main): 2 M events into PostgreSQL, both modes, thread CPU. Run under
# flock -x /tmp/streamlab-cpu.lock with nothing else running. ROUNDS="1 2" by default;
# STORES=postgres by default.
out=${OUT:-$(cd "$(dirname "$0")" && pwd)} # where the figures go (OUT: another experiment's folder)
mkdir -p /tmp/dk
run() { local name=$1 dir=$2; echo "== $name $(date +%T)"; cd $dir
  scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
    --variants=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0 --stores=${STORES:-postgres} --threads \
    --out=$out/drains-$name.json > /tmp/dk/dr-$name.log 2>&1
  cp /tmp/dk/dr-$name.log $out/drains-$name.log
  grep -E "^\| (postgres|duckdb)" /tmp/dk/dr-$name.log; rm -rf runs/bench-vs-peer-*; }
for i in ${ROUNDS:-1 2}; do
run main-$i /work/exp
run new-$i /work/main
done
