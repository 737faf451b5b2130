#!/bin/bash
run() { local name=$1 dir=$2; echo "== $name $(date +%T)"; cd $dir
  scripts/bench-vs-peer --events=2000000 --skipPeer --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0 --stores=postgres --out=/tmp/dk/dr-$name.json > /tmp/dk/dr-$name.log 2>&1
  grep "^| postgres" /tmp/dk/dr-$name.log; rm -rf runs/bench-vs-peer-*; }
run base-1 /work/exp
run ovl-1 /work/main
