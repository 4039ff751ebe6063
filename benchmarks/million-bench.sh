#!/usr/bin/env bash
# Orders at scale: 100,000 and 1,000,000 (and with TEN_MILLION=1, 10,000,000) orders from
# ../shared/data/generate.py, generated once into $SCALE_DIR/<n>/ and reused. For each size:
# first load from JSON (time to ready, RSS after, peak RSS), restart on the state directory
# it left, cold lists at one connection (filter=pending&q=john, and mixed criteria:
# benchmarks/cold-mixed.lua) with --shared-pages 0, and warm hit throughput.
#
#   benchmarks/million-bench.sh                      # DURATION=10s per wrk run
#   BIN=/tmp/server-before benchmarks/million-bench.sh   # another build, for a before/after pair
#   SIZES=10000000 benchmarks/million-bench.sh           # only the sizes given
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PORT="${PORT:-18283}"
DURATION="${DURATION:-10s}"
SCALE_DIR="${SCALE_DIR:-/tmp/listservice-scale}"
read -r -a SIZES <<<"${SIZES:-100000 1000000}"
[[ "${TEN_MILLION:-0}" == 1 ]] && SIZES+=(10000000)
SHARED="${SHARED:-$PWD/../shared}"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
if [[ -z "${BIN:-}" ]]; then
  swift build -c release --product server >/dev/null
  BIN="$ROOT/.build/release/server"
fi
LOG=/tmp/listservice-scale-server.log

SERVER_PID=""
stop() { [[ -n "$SERVER_PID" ]] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }
trap stop EXIT
# Starts the server; READY_S is the seconds until /health answered.
start() {
  local started; started=$(date +%s.%N)
  "$BIN" --port "$PORT" --no-access-log $("$BIN" --help 2>/dev/null | grep -q -- --rate-limit && echo --rate-limit off --write-rate-limit off) "$@" 2>"$LOG" >/dev/null &
  SERVER_PID=$!
  for _ in $(seq 6000); do
    curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && { READY_S=$(awk -v now="$(date +%s.%N)" -v then="$started" 'BEGIN {printf "%.2f", now - then}'); return 0; }
    sleep 0.05
  done
  echo "server did not start"; cat "$LOG"; exit 1
}
mib() { awk -v key="$2:" '$1 == key {printf "%.0f", $2/1024}' "/proc/$1/status"; }
latency() {  # wrk output → "req/s p50 p99"
  printf '%s %s %s' "$(awk '/^Requests\/sec:/ {print $2}' <<<"$1")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$1")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$1")"
}

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
for size in "${SIZES[@]}"; do
  data="$SCALE_DIR/$size"
  [[ -s "$data/orders.json" ]] || { mkdir -p "$data"; python3 "$SHARED/data/generate.py" --orders "$size" --tasks 1000 --quakes 1000 --out "$data" >/dev/null; }
  state=$(mktemp -d)
  echo "== $size orders ($(du -m "$data/orders.json" | cut -f1) MB of JSON)"
  start --data "$data" --state "$state"
  echo "first load from JSON: $READY_S s to ready, RSS $(mib "$SERVER_PID" VmRSS) MiB, peak $(mib "$SERVER_PID" VmHWM) MiB"
  # The binary snapshot is written in the background after the first load; wait for it.
  for _ in $(seq 600); do grep -q "compacted file=$state/orders" "$LOG" && break; sleep 0.1; done
  sleep 1; stop
  start --data "$data" --state "$state"
  echo "restart on the state directory: $READY_S s to ready, RSS $(mib "$SERVER_PID" VmRSS) MiB, peak $(mib "$SERVER_PID" VmHWM) MiB"
  stop; rm -rf "$state"
  start --data "$data" --in-memory --shared-pages 0
  echo "cold filter=pending&q=john, 1 conn (req/s p50 p99): $(latency "$(wrk -t1 -c1 -d"$DURATION" --latency -s benchmarks/cold.lua "http://127.0.0.1:$PORT/orders?filter=pending&q=john&locale=de-DE&tz=Europe/Berlin")")"
  echo "cold mixed criteria, 1 conn (req/s p50 p99): $(latency "$(wrk -t1 -c1 -d"$DURATION" --latency -s benchmarks/cold-mixed.lua "http://127.0.0.1:$PORT/")")"
  stop
  start --data "$data" --in-memory
  echo "warm hit, 64 conns (req/s p50 p99): $(latency "$(wrk -t2 -c64 -d"$DURATION" --latency -H 'X-Session-ID: warm' "http://127.0.0.1:$PORT/orders?filter=pending&q=john")")"
  stop
done
