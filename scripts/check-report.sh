#!/usr/bin/env bash
# Opens a run's report.html in headless Chromium and saves a screenshot, to look at the report as
# a person would. Usage: scripts/check-report.sh [RUN_DIR] (default: a fresh short quickstart run).
# Needs Debian's chromium (installed here with apt-get when missing and we are root).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-}"
if [ -z "$dir" ]; then
  dir="$(mktemp -d)/quickstart"
  "$here/streamlab" run quickstart --warmup=3s --duration=10s --runDir="$dir"
fi
[ -f "$dir/report.html" ] || { echo "no report.html in $dir" >&2; exit 2; }
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else echo "chromium is not installed (apt-get install chromium)" >&2; exit 2; fi
fi
png="$dir/report.png"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$(mktemp -d)" --window-size=1100,3200 \
  --screenshot="$png" "file://$(cd "$dir" && pwd)/report.html" 2>/dev/null
[ -s "$png" ] || { echo "no screenshot taken" >&2; exit 1; }
echo "screenshot: $png"
