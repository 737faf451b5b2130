#!/bin/bash
# DuckDB 1.4.3 by itself: does an append with preserve_insertion_order = false (as DuckDbStore sets it) leave its rows to the checkpoint?
J=~/.m2/repository/org/duckdb/duckdb_jdbc/1.4.3.0/duckdb_jdbc-1.4.3.0.jar
B="$(cd "$(dirname "$0")/.." && pwd)/duckdb-commit-size-20261130-0133-P/CommitSizeBench.java"
cd /tmp/dbench
for n in 2600 131072; do
  for order in true false; do
    java -DcheckpointAtEnd=true -cp $J $B /tmp/dbench/t 2000000 $n "SET wal_autocheckpoint = '16GB'" "SET preserve_insertion_order = $order"
  done
done
rm -rf /tmp/dbench/t
