#!/usr/bin/env bash
# A soak: DURATION (default 30m) of mixed reads and writes (benchmarks/soak.lua) against
# 100,000 orders with a state directory, 16 connections; RSS sampled every 30 s. Prints the
# RSS curve, wrk's totals (errors, non-2xx) and latency percentiles.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18587}"
DURATION="${DURATION:-30m}"

source benchmarks/setup.sh
swift build -c release --product server >/dev/null
STATE=$(mktemp -d)
trap 'kill -TERM $SERVER_PID $SAMPLER_PID 2>/dev/null; wait $SERVER_PID 2>/dev/null || true; rm -rf "$STATE"' EXIT
.build/release/server --port "$PORT" --data "$DATA_DIR" --state "$STATE" --no-access-log --rate-limit off --write-rate-limit off 2>/tmp/soak-server.log &
SERVER_PID=$!
for _ in $(seq 300); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)  duration: $DURATION"
( while kill -0 $SERVER_PID 2>/dev/null; do
    echo "$(date -u +%H:%M:%S) rss_mib=$(awk '/VmRSS/ {printf "%.0f", $2/1024}' /proc/$SERVER_PID/status)"; sleep 30
  done ) &
SAMPLER_PID=$!
wrk -t2 -c16 -d"$DURATION" --latency --timeout 10s -s benchmarks/soak.lua "http://127.0.0.1:$PORT"
echo "after: rss_mib=$(awk '/VmRSS/ {printf "%.0f", $2/1024}' /proc/$SERVER_PID/status) sessions=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^listservice_sessions/ {print $2}')"
grep -c "event=compacted" /tmp/soak-server.log | sed 's/^/compactions: /' || true
