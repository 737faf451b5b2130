#!/usr/bin/env bash
# A/B of the ingestion JVM's young generation: A = streamlab's default (plus A_OPTS) (-Xmx4g, the parallel
# collector sizing the heap from its initial 1/64 of RAM), B = STREAMLAB_INGEST_JAVA_OPTS="$B_OPTS".
# Alternated drains of 2 M events (200 k warm-up), Avro, PostgreSQL, MODE=al|eo, under an
# exclusive lock on /tmp/streamlab-cpu.lock, from the worktree WT (built with package).
set -euo pipefail
out="${OUT:?}"; wt="${WT:?}"; b_opts="${B_OPTS:?}"; a_opts="${A_OPTS:-}"; rounds="${ROUNDS:-2}"; mode="${MODE:-al}"
url="jdbc:postgresql://127.0.0.1:5432/streamlab_bench?user=postgres"
if [ "$mode" = al ]; then m=(--writeMethod=STORAGE_API_AT_LEAST_ONCE); else m=(--writeMethod=STORAGE_WRITE_API --triggeringFrequencySec=0); fi
run() { # variant round
  local rd="/tmp/ab-runs/$mode-$1-$2" opts=""
  opts="$a_opts"; [ "$1" = B ] && opts="$b_opts"
  rm -rf "$rd"
  "$wt/scripts/thread-cpu" --out="$out/$mode-$1-$2.threads.json" > "$out/$mode-$1-$2.threads.txt" 2>&1 &
  local sampler=$!
  (cd "$wt" && STREAMLAB_INGEST_JAVA_OPTS="$opts" ./streamlab run --mode=drain --preload=1800000 --preloadWarmup=200000 \
     --store=postgres --jdbcUrl="$url" "${m[@]}" --formatToStore=AVRO_GENERIC_RECORD --runDir="$rd") > "$out/$mode-$1-$2.log" 2>&1 || true
  wait "$sampler" || true
  [ -f "$rd/results.json" ] && cp "$rd/results.json" "$out/$mode-$1-$2.json"
  (cd "$wt" && ./streamlab clean --jdbcUrl="$url" --yes) > /dev/null 2>&1 || true
  rm -rf "$rd"
  python3 - "$out/$mode-$1-$2.json" "$mode-$1-$2" "$out/$mode-$1-$2.threads.json" <<'PY'
import json, sys
try: r = json.load(open(sys.argv[1]))
except Exception as e: print(sys.argv[2], "no results", e); sys.exit(0)
i, t = r["ingestion"], r["table"]
epc = i["eventsPerSec"] * i["writingSeconds"] / i["cpuSeconds"] if i["cpuSeconds"] else 0
print(f"{sys.argv[2]}: events/s {i['eventsPerSec']:,.0f}, events/CPU-s {epc:,.0f}, MB/s/core {i['megabytesPerSecPerIngestCore']:.1f}, "
      f"cpu-s {i['cpuSeconds']:.2f}, lost {t['lost']} dup {t['duplicated']}")
try:
  th = json.load(open(sys.argv[3]))
  print("   threads:", {k: round(v, 2) for k, v in sorted(th.get("groups", {}).items(), key=lambda kv: -kv[1])[:6]},
        "faults", sum(th.get("minorFaultsByGroup", {}).values()))
except Exception as e: print("   no threads.json", e)
PY
}
mkdir -p /tmp/ab-runs "$out"
for k in $(seq 1 "$rounds"); do
  if [ "$((k % 2))" = 1 ]; then run A "$k"; run B "$k"; else run B "$k"; run A "$k"; fi
done
