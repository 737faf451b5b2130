#!/bin/bash
# DuckDB 1.4.3: CPU per row by rows per commit, 2 M rows each, fresh file each
J=~/.m2/repository/org/duckdb/duckdb_jdbc/1.4.3.0/duckdb_jdbc-1.4.3.0.jar
cd /tmp/dbench
for n in 1000 2600 8192 32768 131072; do
  java -cp $J CommitSizeBench.java /tmp/dbench/t 2000000 $n
done
for n in 2600 131072; do
  java -cp $J CommitSizeBench.java /tmp/dbench/t 2000000 $n "SET wal_autocheckpoint = '16GB'"
done
rm -rf /tmp/dbench/t
