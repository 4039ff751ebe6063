#!/usr/bin/env bash
# Issue 26 §3: a 62 MB USGS import (220,000 new features from generate.py) into each binary,
# started on the standard data with a state directory: peak RSS over what the items keep.
#
#   benchmarks/import-memory.sh NAME=BINARY ...
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/setup.sh
PORT="${PORT:-18393}"
FEED=/tmp/listservice-feed-220000.json
if [[ ! -s "$FEED" ]]; then
  GEN=$(mktemp -d)
  python3 "$SHARED/data/generate.py" --orders 1 --tasks 1 --quakes 220000 --out "$GEN" >/dev/null
  sed 's/"id": "us07/"id": "im07/g' "$GEN/quakes.geojson" >"$FEED"  # every feature new
  rm -rf "$GEN"
fi
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
for spec in "$@"; do
  name=${spec%%=*} binary=${spec#*=}
  STATE=$(mktemp -d)
  "$binary" --port "$PORT" --data "$DATA_DIR" --state "$STATE" --no-access-log $(unlimited "$binary") 2>"$SERVER_LOG" &
  SERVER_PID=$!
  for _ in $(seq 600); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
  sleep 3  # the first snapshots
  printf '%-8s ' "$name"
  python3 benchmarks/import-memory.py "$PORT" "$SERVER_PID" "$FEED"
  stop_server
  rm -rf "$STATE"
done
