#!/bin/bash
# At-least-once drains (2 M events into PostgreSQL) of one build (/work/exp), alternating the
# ingestion JVM's default heap sizing with a fixed young generation whose survivor spaces hold
# what is in flight. Run under flock -x /tmp/streamlab-cpu.lock with nothing else running.
out=$(cd "$(dirname "$0")" && pwd)
G="-XX:MetaspaceSize=256m -XX:-UseAdaptiveSizePolicy -Xmn1536m -XX:SurvivorRatio=4"
run() { local name=$1 opts=$2; echo "== $name $(date +%T) [$opts]"; cd /work/exp
  STREAMLAB_INGEST_JAVA_OPTS="$opts -Xlog:gc:file=$out/gc-$name.log" scripts/bench-vs-peer --events=2000000 --skipPeer \
    --formats=AVRO_GENERIC_RECORD --variants=STORAGE_API_AT_LEAST_ONCE --stores=postgres --threads \
    --out=$out/drain-$name.json > $out/drain-$name.log 2>&1
  grep -E "^\| postgres|GC Thread" $out/drain-$name.log; rm -rf runs/bench-vs-peer-*; }
for i in ${ROUNDS:-1 2}; do
run default-$i ""
run young-$i "$G"
done
