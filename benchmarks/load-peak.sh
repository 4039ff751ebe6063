#!/usr/bin/env bash
# RSS and peak RSS (VmHWM) of one load of a large data set, in MiB: after a first load from JSON
# (at ready, and once the first snapshot is written) and after a restart on the state it left.
#   benchmarks/load-peak.sh BINARY [DATA_DIR]    # default: 1,000,000 orders in $SCALE_DIR/1000000
#   TRACE=1 benchmarks/load-peak.sh BINARY       # also each load's time to ready and its RSS and
#                                                # file-backed part (VmRSS/RssFile) every 20 ms:
#                                                # which phase is the peak (decode or index build)
# The data set is made as benchmarks/million-bench.sh makes it. Alternate builds in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY=${1:?usage: benchmarks/load-peak.sh BINARY [DATA_DIR]}
SCALE_DIR="${SCALE_DIR:-/tmp/listservice-scale}"
DATA=${2:-$SCALE_DIR/1000000}
PORT="${PORT:-18283}"
[[ -s "$DATA/orders.json" ]] || { mkdir -p "$DATA"; python3 ../shared/data/generate.py --orders 1000000 --tasks 1000 --quakes 1000 --out "$DATA" >/dev/null; }
STATE=$(mktemp -d) LOG=$(mktemp)
PID=""
trap '[[ -z "$PID" ]] || kill "$PID" 2>/dev/null; rm -rf "$STATE" "$LOG"' EXIT
mib() { awk -v key="$1:" '$1 == key {printf "%.0f", $2/1024}' "/proc/$PID/status"; }
start() {
  local started; started=$(date +%s%N)
  "$BINARY" --port "$PORT" --no-access-log --rate-limit off --data "$DATA" --state "$STATE" 2>"$LOG" &
  PID=$!
  trace=""
  for _ in $(seq 6000); do
    curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && { ready_ms=$(( ($(date +%s%N) - started) / 1000000 )); return 0; }
    trace+="$(mib VmRSS)/$(mib RssFile) "
    sleep 0.02
  done
  echo "the server did not start"; cat "$LOG"; exit 1
}
stop() { kill "$PID"; wait "$PID" || true; PID=""; }
start
ready="$(mib VmRSS) ($(mib VmHWM))" first_ms=$ready_ms first_trace=$trace
for _ in $(seq 600); do grep -q "compacted file=$STATE/orders" "$LOG" && break; sleep 0.1; done
sleep 1
snapshot="$(mib VmRSS) ($(mib VmHWM))"
stop
start
restart="$(mib VmRSS) ($(mib VmHWM))"
stop
echo "$(basename "$BINARY"): first load, ready $ready MiB; after the first snapshot $snapshot; restart $restart"
[[ -z "${TRACE:-}" ]] || {
  echo "first load ready in $first_ms ms; RSS/file-backed MiB every 20 ms: $first_trace"
  echo "restart ready in $ready_ms ms; RSS/file-backed MiB every 20 ms: $trace"
}
