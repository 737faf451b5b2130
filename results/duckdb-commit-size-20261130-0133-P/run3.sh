#!/bin/bash
J=~/.m2/repository/org/duckdb/duckdb_jdbc/1.4.3.0/duckdb_jdbc-1.4.3.0.jar
cd /tmp/dbench
java -DcheckpointAtEnd=true -cp $J CommitSizeBench.java /tmp/dbench/t 2000000 2600 "SET wal_autocheckpoint = '16GB'"
java -DcheckpointAtEnd=true -cp $J CommitSizeBench.java /tmp/dbench/t 2000000 131072 "SET wal_autocheckpoint = '16GB'"
java -DcheckpointAtEnd=true -cp $J CommitSizeBench.java /tmp/dbench/t 2000000 2600 "SET wal_autocheckpoint = '16GB'" "SET force_compression = 'uncompressed'"
# profiled: perf on the CHECKPOINT alone
java -DcheckpointAtEnd=true -DpauseMs=3000 -cp $J CommitSizeBench.java /tmp/dbench/t 2000000 2600 "SET wal_autocheckpoint = '16GB'" > /tmp/dbench/prof-run.txt 2>&1 &
for i in $(seq 1 200); do grep -q "CHECKPOINT starts" /tmp/dbench/prof-run.txt 2>/dev/null && break; sleep 0.5; done
pid=$(grep "CHECKPOINT starts" /tmp/dbench/prof-run.txt | awk '{print $NF}')
perf record -F 999 -g -p $pid -o /tmp/dbench/ckpt.perf -- sleep 12 > /dev/null 2>&1
wait
cat /tmp/dbench/prof-run.txt
rm -rf /tmp/dbench/t
