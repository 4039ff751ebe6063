#!/usr/bin/env bash
# Instructions per cold page, which this noisy machine does not disturb: the server under
# callgrind on the standard 100,000 orders (setup.sh) with --shared-pages 0, 20 requests to warm
# up, then N requests each in a new session (every one formats its page), counters zeroed in
# between; prints instructions per request for each query given.
#   benchmarks/cold-instructions.sh BINARY [QUERY ...]   (default: sort=date)
# e.g. benchmarks/cold-instructions.sh /tmp/server 'sort=date' 'sort=date&group=day'
# The binary is copied and stripped of debug information first (valgrind reads Swift's DWARF
# slowly, and some of it not at all).
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY=${1:?usage: benchmarks/cold-instructions.sh BINARY [QUERY ...]}
shift
QUERIES=("${@:-sort=date}")
N="${N:-100}"
PORT="${PORT:-18610}"
source benchmarks/setup.sh
command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }
WORK=$(mktemp -d)
trap 'kill "${PID:-}" 2>/dev/null || true; rm -rf "$WORK"' EXIT
cp "$BINARY" "$WORK/server" && strip -d "$WORK/server"
for query in "${QUERIES[@]}"; do
  valgrind --tool=callgrind --callgrind-out-file="$WORK/out" "$WORK/server" --port "$PORT" --data "$DATA_DIR" --in-memory \
    --no-access-log --shared-pages 0 --rate-limit off --write-rate-limit off >/dev/null 2>&1 &
  PID=$!
  for _ in $(seq 600); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.5; done
  for i in $(seq 20); do curl -s -o /dev/null -H "X-Session-ID: warm-$i" "http://127.0.0.1:$PORT/orders?$query"; done
  callgrind_control -z "$PID" >/dev/null 2>&1
  for i in $(seq "$N"); do curl -s -o /dev/null -H "X-Session-ID: cold-$i" "http://127.0.0.1:$PORT/orders?$query"; done
  callgrind_control -d "$PID" >/dev/null 2>&1
  kill "$PID"; wait "$PID" 2>/dev/null || true
  total=$(callgrind_annotate "$WORK/out".1 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  echo "$query: instructions per cold page: $((total / N))"
  rm -f "$WORK/out" "$WORK/out".*
done
