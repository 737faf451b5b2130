#!/bin/bash
# Shuffled STORAGE_WRITE_API drains (1 s trigger, 1 M events into PostgreSQL), alternated between
# the build before the change (worktree /work/exp) and the change (/work/main). Run under
# flock -x /tmp/streamlab-cpu.lock with nothing else running.
out=$(cd "$(dirname "$0")" && pwd)
run() { local name=$1 dir=$2; echo "== $name $(date +%T)"; cd $dir
  scripts/bench-vs-peer --events=1000000 --skipPeer --formats=AVRO_GENERIC_RECORD \
    --variants=STORAGE_WRITE_API@1 --stores=postgres --out=$out/drains-$name.json > $out/drains-$name.log 2>&1
  grep -E "^\| postgres" $out/drains-$name.log; rm -rf runs/bench-vs-peer-*; }
for i in ${ROUNDS:-1 2}; do
run before-$i /work/exp
run after-$i /work/main
done
