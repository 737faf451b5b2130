#!/bin/bash
# ./streamlab run (the default: 10 k events/s steady into DuckDB, at-least-once), alternated A B B A:
# A = main 9ba0155 (/tmp/benchA, 2 s checkpoints), B = the change (/tmp/benchB, 6 s unless given).
k=0
for v in A B B A; do
  k=$((k+1))
  dir=/tmp/bench$v
  echo "== $k-$v $(date -u +%H:%M:%S)"
  (cd $dir && ./streamlab run --runDir=/tmp/zlat/$k-$v > /tmp/zlat/$k-$v.out 2>&1; echo "rc=$?")
  grep -i -E "p99|lost|verdict|checkpoints every" /tmp/zlat/$k-$v.out | head -8
done
