#!/usr/bin/env bash
# Issue 29: RSS per idle live stream, a list's own (`/orders/live`…) beside a multiplexed one
# (`GET /live`) carrying one and four lists, each on a fresh server with the standard data.
#
#   SERVER_BINARY=.build/release/server STREAMS=2000 ROUNDS=2 benchmarks/idle-stream-memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/setup.sh
PORT="${PORT:-18394}"
SERVER_BINARY="${SERVER_BINARY:-.build/release/server}"
STREAMS="${STREAMS:-2000}"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
for _ in $(seq "${ROUNDS:-1}"); do
  for run in "list 1" "mux 1" "mux 4"; do
    start_server "$SERVER_BINARY" "$DATA_DIR"
    read -r mode lists <<<"$run"
    python3 benchmarks/idle-stream-memory.py "$PORT" "$SERVER_PID" "$mode" "$STREAMS" "$lists"
    stop_server
  done
done
