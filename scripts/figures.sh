#!/usr/bin/env bash
# Prints the README's figures again from the saved results under results/ (see results/README.md):
# for each result directory, its command, then its figures. Usage: scripts/figures.sh [NAME...]
# Needs jq and a built streamlab (./streamlab builds itself when needed).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v jq >/dev/null || { echo "figures.sh needs jq (apt-get install jq)" >&2; exit 2; }
if [ $# -gt 0 ]; then dirs=(); for n in "$@"; do dirs+=("$here/results/$n/"); done
else dirs=("$here"/results/*/); fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for d in "${dirs[@]}"; do
  [ -f "$d/COMMAND" ] || { echo "no COMMAND in $d" >&2; exit 2; }
  echo "== $(basename "$d"): $(cat "$d/COMMAND")"
  if [ -f "$d/results.json" ]; then
    "$here/streamlab" compare "$d" --out="$out/compare.html" | grep -v '^\[streamlab\] comparison'
    jq -r '"verdict " + .verdict.verdict + " (" + .verdict.promise + ", exit code " + (.verdict.exitCode | tostring)
      + "): " + .verdict.reason + "; events re-read " + (.table.eventsReRead | tostring)
      + ", rows ignored by the identity key " + (.table.rowsIgnoredByKey | tostring)' "$d/results.json"
  fi
  if [ -f "$d/figures.jq" ]; then
    for j in "$d"/*.json; do
      [ "$(basename "$j")" = results.json ] || jq -r -f "$d/figures.jq" "$j"
    done
  fi
  echo
done
