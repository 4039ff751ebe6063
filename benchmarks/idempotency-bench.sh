#!/usr/bin/env bash
# What an Idempotency-Key costs a write: creates (POST /orders, journaled and fsync'ed before
# the answer) without a key, each under a new key, and retries that are replays, alternated
# in ROUNDS rounds against one release server on 100,000 orders; 1 and 64 connections.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18586}"
DURATION="${DURATION:-8s}"
ROUNDS="${ROUNDS:-2}"

source benchmarks/setup.sh
swift build -c release --product server >/dev/null

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)  disk: $(df -h /tmp | tail -1 | awk '{print $1}')"
STATE=$(mktemp -d)
trap 'kill -TERM $SERVER_PID 2>/dev/null; wait $SERVER_PID 2>/dev/null || true; rm -rf "$STATE"' EXIT
.build/release/server --port "$PORT" --data "$DATA_DIR" --state "$STATE" --no-access-log $(unlimited .build/release/server) 2>/tmp/idempotency-bench-server.log &
SERVER_PID=$!
for _ in $(seq 300); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done

run() {  # label conns script [args]
  local label=$1 conns=$2 script=$3; shift 3
  local threads=$(( conns > 1 ? 2 : 1 ))
  local out
  out=$(wrk -t"$threads" -c"$conns" -d"$DURATION" --latency -s "$script" "http://127.0.0.1:$PORT" -- "$@")
  printf '%-12s conns=%-3s req/s=%-10s p50=%-9s p99=%-9s non2xx=%s\n' "$label" "$conns" \
    "$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$out")" \
    "$(awk -F': ' '/Non-2xx/ {print $2}' <<<"$out")"
}

for round in $(seq "$ROUNDS"); do
  echo "== round $round"
  for conns in 1 64; do
    run "no key" "$conns" benchmarks/create-order.lua
    run "new key" "$conns" benchmarks/create-order-keyed.lua "r$round-c$conns-$RANDOM"
    run "replay" "$conns" benchmarks/create-order-keyed.lua replay
  done
done
curl -s "http://127.0.0.1:$PORT/metrics" | grep -E '^listservice_idempotency'
ls -la "$STATE" | grep -E 'journal|answers'
