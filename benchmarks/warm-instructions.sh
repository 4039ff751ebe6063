#!/usr/bin/env bash
# Instructions per warm session hit, which this noisy machine does not disturb: the server under
# callgrind (embedded data), 500 warm `orders?filter=pending&q=john` on one keep-alive
# connection after 500 to warm up, counters zeroed in between; prints instructions per request.
#   benchmarks/warm-instructions.sh BINARY [curl arguments, e.g. -H 'Accept-Encoding: gzip']
# Strip debug information first (`strip -d`): valgrind reads DWARF slowly.
set -euo pipefail
BINARY=${1:?usage: benchmarks/warm-instructions.sh BINARY [curl arguments]}
shift
PORT="${PORT:-18609}"
OUT=$(mktemp)
command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }
valgrind --tool=callgrind --callgrind-out-file="$OUT" "$BINARY" --in-memory --port "$PORT" --no-access-log \
  --rate-limit off --write-rate-limit off >/dev/null 2>&1 &
PID=$!
trap 'kill "$PID" 2>/dev/null || true; rm -f "$OUT" "$OUT".*' EXIT
for _ in $(seq 300); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.5; done
urls=()
for _ in $(seq 500); do urls+=("http://127.0.0.1:$PORT/orders?filter=pending&q=john"); done
curl -s -H "X-Session-ID: warm-instructions" "$@" "${urls[@]}" >/dev/null
callgrind_control -z "$PID" >/dev/null 2>&1
curl -s -H "X-Session-ID: warm-instructions" "$@" "${urls[@]}" >/dev/null
callgrind_control -d "$PID" >/dev/null 2>&1
sleep 1
total=$(callgrind_annotate "$OUT".1 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
echo "instructions per warm hit: $((total / 500)) ($total for 500)"
