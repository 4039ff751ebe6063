#!/usr/bin/env bash
# HTTP overhead benchmark: release build, server on a free port, wrk against /health with
# 64 connections (2 threads) and 1 connection (1 thread). Prints requests/s, p50 and p99.
#
#   benchmarks/http-bench.sh            # DURATION=10s URL_PATH=/health
#
# Every wait is bounded; only the server this script started is stopped.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${DURATION:-10s}"
URL_PATH="${URL_PATH:-/health}"
PORT="${PORT:-18181}"

command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
swift build -c release --product server >/dev/null

.build/release/server --port "$PORT" --no-access-log --rate-limit off --write-rate-limit off --in-memory 2>/tmp/http-bench-server.log &
SERVER_PID=$!
trap 'kill -TERM $SERVER_PID 2>/dev/null; wait $SERVER_PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
printf '%-12s %-6s %12s %10s %10s\n' path conns req/s p50 p99
for conns in 64 1; do
  threads=$(( conns > 1 ? 2 : 1 ))
  wrk -t2 -c16 -d2s "http://127.0.0.1:$PORT$URL_PATH" >/dev/null 2>&1 || true   # warm-up
  out=$(wrk -t"$threads" -c"$conns" -d"$DURATION" --latency "http://127.0.0.1:$PORT$URL_PATH")
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  p50=$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$out")
  p99=$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$out")
  printf '%-12s %-6s %12s %10s %10s\n' "$URL_PATH" "$conns" "$rps" "$p50" "$p99"
done
