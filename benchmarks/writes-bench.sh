#!/usr/bin/env bash
# Writes with 100,000 orders and 1,000 sessions holding cached lists:
#   1. the in-memory cost of one change (benchmarks/WriteCost, journal excluded), at 10k and 100k orders;
#   2. HTTP write throughput, every request a PATCH journaled and fsync'ed before its answer:
#      1 connection (one fsync per write) and 64 connections (group commit: writes that arrive
#      during an fsync share the next one).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18585}"
DURATION="${DURATION:-10s}"

source benchmarks/setup.sh
swift build -c release --product server >/dev/null && swift build -c release --product write-cost >/dev/null

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)  disk: $(df -h /tmp | tail -1 | awk '{print $1}')"
echo "== in-memory cost of one change (1,000 sessions with cached lists)"
.build/release/write-cost

STATE=$(mktemp -d)
trap 'kill -TERM $SERVER_PID 2>/dev/null; wait $SERVER_PID 2>/dev/null || true; rm -rf "$STATE"' EXIT
.build/release/server --port "$PORT" --data "$DATA_DIR" --state "$STATE" --no-access-log --rate-limit off --write-rate-limit off 2>/tmp/writes-bench-server.log &
SERVER_PID=$!
for _ in $(seq 300); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
urls=("/orders?filter=pending" "/orders?filter=completed" "/orders?q=john" "/orders?sort=total&order=desc" "/orders?filter=highValue")
for index in "${!urls[@]}"; do
  python3 benchmarks/sessions.py "$PORT" "$SERVER_PID" 200 "${urls[$index]}" "list$index" >/dev/null
done
echo "== HTTP writes (PATCH /orders/:id, fsync before each answer), $(curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^listservice_sessions/ {print $2}') sessions"
for conns in 1 64; do
  threads=$(( conns > 1 ? 2 : 1 ))
  out=$(wrk -t"$threads" -c"$conns" -d"$DURATION" --latency -s benchmarks/patch.lua "http://127.0.0.1:$PORT")
  printf 'conns=%-3s req/s=%-10s p50=%-9s p99=%-9s non2xx=%s\n' "$conns" "$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$out")" \
    "$(awk -F': ' '/Non-2xx/ {print $2}' <<<"$out")"
done
curl -s "http://127.0.0.1:$PORT/metrics" | grep -E '^listservice_(lists_patched|recomputations|rows_formatted)'
ls -la "$STATE" | grep journal
