#!/bin/bash
J=~/.m2/repository/org/duckdb/duckdb_jdbc/1.4.3.0/duckdb_jdbc-1.4.3.0.jar
cd /tmp/dbench
for rg_n in 2048:2600 2048:8192 8192:2600 8192:8192 16384:2600 16384:16384 32768:32768; do
  java -DrowGroupSize=${rg_n%:*} -cp $J CommitSizeBench.java /tmp/dbench/t 2000000 ${rg_n#*:}
done
rm -rf /tmp/dbench/t
