#!/usr/bin/env bash
# What counts (issue 30) cost, at 1,000,000 orders: two builds alternated in one run, one
# without counts (BEFORE) and one with (AFTER), ROUNDS rounds, each a fresh in-memory server:
#   - a cold page: `filter=pending&q=john`, a new session per request, --shared-pages 0, 1 connection;
#   - cold mixed criteria (cold-mixed.lua: filter, search (none included), sort and display change
#     every request), 1 connection;
#   - a cold page of a search no request made before (counts-searches.lua): its counts are
#     counted from the search's matches each time, 1 connection;
#   - writes: POST /orders, 16 connections, with the server's CPU time per write.
#
#   BEFORE=/tmp/server-before AFTER=.build/release/server benchmarks/counts-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18483}"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-8s}"
DATA_DIR="${DATA_DIR:-/tmp/listservice-scale/1000000}"
[[ -s "$DATA_DIR/orders.json" ]] || { mkdir -p "$DATA_DIR"; python3 ../shared/data/generate.py --orders 1000000 --tasks 1000 --quakes 1000 --out "$DATA_DIR" >/dev/null; }
source benchmarks/setup.sh
: "${BEFORE:?a build without counts}" "${AFTER:?a build with counts}"

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)  data: $DATA_DIR"
for round in $(seq "$ROUNDS"); do
  echo "== round $round"
  for name in before after; do
    binary=$BEFORE; [[ $name == after ]] && binary=$AFTER
    start_server "$binary" "$DATA_DIR" --shared-pages 0
    export name
    measure "cold pending&q=john" 1 -s benchmarks/cold.lua "http://127.0.0.1:$PORT/orders?filter=pending&q=john"
    measure "cold mixed" 1 -s benchmarks/cold-mixed.lua "http://127.0.0.1:$PORT"
    measure "cold new search" 1 -s benchmarks/counts-searches.lua "http://127.0.0.1:$PORT"
    stop_server
    start_server "$binary" "$DATA_DIR"
    curl -s -o /dev/null "http://127.0.0.1:$PORT/orders?filter=pending"  # the counts (after) and lists in use, made once
    measure "POST /orders" 16 -s benchmarks/create-order.lua "http://127.0.0.1:$PORT"
    stop_server
  done
done
