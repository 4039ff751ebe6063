#!/usr/bin/env bash
# A grouped cold page beside its ungrouped twin at 1,000,000 orders, for each build in turn
# (a before/after pair alternated: list it twice), server CPU per request:
#   benchmarks/cold-pair.sh BEFORE AFTER BEFORE AFTER
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18493}"
DURATION="${DURATION:-4s}"
DATA_DIR="${DATA_DIR:-/tmp/listservice-scale/1000000}"
[[ -s "$DATA_DIR/orders.json" ]] || { mkdir -p "$DATA_DIR"; python3 ../shared/data/generate.py --orders 1000000 --tasks 1000 --quakes 1000 --out "$DATA_DIR" >/dev/null; }
source benchmarks/setup.sh
for bin in "$@"; do
  start_server "$bin" "$DATA_DIR" --shared-pages 0
  base="http://127.0.0.1:$PORT/orders"
  curl -s -o /dev/null "$base?sort=date&group=day"
  for path in "sort=date" "sort=date&group=day"; do name="$(basename "$bin")" measure "$path" 1 -s benchmarks/cold.lua "$base?$path"; done
  stop_server
done
