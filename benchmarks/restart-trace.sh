#!/usr/bin/env bash
# A restart on a state directory at 1,000,000 orders, traced: RSS and its file-backed part
# (VmRSS/RssFile, MiB) every 20 ms until ready, the time to ready, and the peak (VmHWM).
#   benchmarks/restart-trace.sh BINARY [DATA_DIR]   # default: $SCALE_DIR/1000000, as load-peak.sh
# Shows which phase of a load is its peak (the snapshot's decode, or the index build after it).
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY=${1:?usage: benchmarks/restart-trace.sh BINARY [DATA_DIR]}
SCALE_DIR="${SCALE_DIR:-/tmp/listservice-scale}"
DATA=${2:-$SCALE_DIR/1000000}
PORT="${PORT:-18284}"
[[ -s "$DATA/orders.json" ]] || { mkdir -p "$DATA"; python3 ../shared/data/generate.py --orders 1000000 --tasks 1000 --quakes 1000 --out "$DATA" >/dev/null; }
STATE=$(mktemp -d) LOG=$(mktemp)
PID=""
trap '[[ -z "$PID" ]] || kill "$PID" 2>/dev/null; rm -rf "$STATE" "$LOG"' EXIT
mib() { awk -v key="$1:" '$1 == key {printf "%.0f", $2/1024}' "/proc/$PID/status"; }
# The first load writes the snapshot the restart reads.
"$BINARY" --port "$PORT" --no-access-log --rate-limit off --data "$DATA" --state "$STATE" 2>"$LOG" &
PID=$!
for _ in $(seq 1200); do grep -q "compacted file=$STATE/orders" "$LOG" && break; sleep 0.1; done
kill "$PID"; wait "$PID" || true
started=$(date +%s%N)
"$BINARY" --port "$PORT" --no-access-log --rate-limit off --data "$DATA" --state "$STATE" 2>"$LOG" &
PID=$!
trace=""
until curl -fs -o /dev/null "http://127.0.0.1:$PORT/health"; do
  trace+="$(mib VmRSS)/$(mib RssFile) "
  sleep 0.02
  (( $(date +%s%N) - started < 120000000000 )) || { echo "the server did not start"; cat "$LOG"; exit 1; }
done
ready_ms=$(( ($(date +%s%N) - started) / 1000000 ))
echo "$(basename "$BINARY"): restart ready in $ready_ms ms, RSS $(mib VmRSS) MiB, peak $(mib VmHWM) MiB"
echo "RSS/file-backed MiB every 20 ms: $trace"
kill "$PID"; wait "$PID" || true; PID=""
