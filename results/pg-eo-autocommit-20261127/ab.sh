#!/usr/bin/env bash
# A/B of a keyed (exactly-once) PostgreSQL batch committed by its own COPY (B, df80170) against
# COPY + COMMIT in an explicit transaction (A, 434cf44), alternated, under an exclusive lock on
# /tmp/streamlab-cpu.lock. A and B are worktrees built with `mvn -q -B -o -DskipTests package`.
#   drains: 2 M events (200 k warm-up), STORAGE_WRITE_API untriggered, Avro, PostgreSQL
#   steady:  EO at RATE events/s, 20 s warm-up into a 30 s window
set -euo pipefail
out="${OUT:-/work/main/results/pg-eo-autocommit-20261127}"
url="jdbc:postgresql://127.0.0.1:5432/streamlab_bench?user=postgres"
rate="${RATE:-76000}"
rounds="${ROUNDS:-3}"
drains="${DRAINS:-1}" # 0: skip the drains
steady="${STEADY:-1}" # 0: skip the steady runs
eo=(--store=postgres --jdbcUrl="$url" --writeMethod=STORAGE_WRITE_API --triggeringFrequencySec=0 --formatToStore=AVRO_GENERIC_RECORD)
run() { # variant kind round
  local wt="/tmp/wt$1" rd="/tmp/ab-runs/$2-$1-$3"
  rm -rf "$rd"
  if [ "$2" = drain ]; then
    (cd "$wt" && ./streamlab run --mode=drain --preload=1800000 --preloadWarmup=200000 "${eo[@]}" --runDir="$rd") > "$out/$2-$1-$3.log" 2>&1 || true
  else
    (cd "$wt" && ./streamlab run --ratePerSec="$rate" --warmup=20s --duration=30s "${eo[@]}" --runDir="$rd") > "$out/$2-$1-$3.log" 2>&1 || true
  fi
  [ -f "$rd/results.json" ] && cp "$rd/results.json" "$out/$2-$1-$3.json"
  (cd /tmp/wtB && ./streamlab clean --jdbcUrl="$url" --yes) > /dev/null 2>&1 || true
  rm -rf "$rd"
  python3 - "$out/$2-$1-$3.json" "$2-$1-$3" <<'PY'
import json, sys
try: r = json.load(open(sys.argv[1]))
except Exception as e: print(sys.argv[2], "no results", e); sys.exit(0)
i, t, l = r["ingestion"], r["table"], r["latencyMillis"]
epc = i["eventsPerSec"] * i["writingSeconds"] / i["cpuSeconds"] if i["cpuSeconds"] else 0
sec = sorted(s["p99Millis"] for s in r["series"] if s.get("phase") == "measure" and s.get("p99Millis") is not None)
over = sum(1 for x in sec if x > 250)
ck = (r.get("storeServer") or {}).get("checkpointsInWindow")
print(f"{sys.argv[2]}: events/s {i['eventsPerSec']:,.0f}, events/CPU-s {epc:,.0f}, MB/s/core {i['megabytesPerSecPerIngestCore']:.1f}, "
      f"p50 {l['p50']:.0f} p99 {l['p99']:.0f} ms, seconds>250 {over}/{len(sec)}, checkpoints {ck}, lost {t['lost']} dup {t['duplicated']}")
PY
}
mkdir -p /tmp/ab-runs
[ "$drains" = 0 ] || for k in $(seq 1 "$rounds"); do
  for v in A B; do [ "$((k % 2))" = 1 ] && x=$v || x=$([ $v = A ] && echo B || echo A); run "$x" drain "$k"; done
done
[ "$steady" = 0 ] || for k in $(seq 1 "$rounds"); do
  for v in A B; do [ "$((k % 2))" = 1 ] && x=$v || x=$([ $v = A ] && echo B || echo A); run "$x" steady "$k"; done
done
