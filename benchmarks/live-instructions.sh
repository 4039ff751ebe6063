#!/usr/bin/env bash
# Instructions per live-list refresh, which this noisy machine does not disturb: the server under
# callgrind on 10,000 orders, 1,000 streams over 100 lists (5 locales x 20 zones, the live-bench
# scenario 1 shape), WRITES orders created (default 10) each entering every window, 1.5 s apart so
# none share an event; the inclusive counts of `LiveList.refresh` and of the writer's
# `LiveLists.changed` (everything is counted: toggling collection on functions whose
# specialized versions call each other undercounted).
# Rows and counts read the clock (what "today" and the month hold in each zone): compare builds
# counted in the same hour.
#   benchmarks/live-instructions.sh BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY=${1:?usage: benchmarks/live-instructions.sh BINARY}
WRITES="${WRITES:-10}"
PORT="${PORT:-18610}"
DATA_DIR="${LIVE_DATA_DIR:-/tmp/listdata-10k}"
source benchmarks/setup.sh
source benchmarks/callgrind.sh
[[ -s "$DATA_DIR/orders.json" ]] || python3 "$SHARED/data/generate.py" --orders 10000 --tasks 1000 --quakes 1000 --out "$DATA_DIR"
swift build -c release --product live-load >/dev/null
callgrind_start "$BINARY" -- --data "$DATA_DIR"
callgrind_zero  # not the load
.build/release/live-load "$PORT" 1000 --lists 100 --writes "$WRITES" --interval 1500 --hold 5 | tail -1
callgrind_stop
report=$(callgrind_report --inclusive=yes --tree=caller --threshold=100)
# The refresh's inclusive count and its number of calls; the writer's part, if not inlined
# (the refresh's name, specialized for orders or not).
refresh='^ *[0-9,]+ .*\*  \?\?\?:.*LiveA0C7refresh6engine2at4memo7windows8criteria8reformat.*SgSbtF(AA6OrdersO_Tg5)? \['
instructions=$(grep -E "$refresh" <<<"$report" | head -1 | awk '{gsub(",", "", $1); print $1}')
calls=$(grep -B3 -E "$refresh" <<<"$report" | grep -o '([0-9,]*x)' | tr -d '(x),' | awk '{s += $1} END {print s + 0}')
echo "LiveList.refresh: $instructions instructions in $calls refreshes: $((instructions / (calls > 0 ? calls : 1))) per list refresh"
writer=$(grep -E '^ *[0-9,]+ .*\*  \?\?\?:.*LiveListsC7changed_6engine' <<<"$report" | head -1 | awk '{gsub(",", "", $1); print $1}')
[[ -z "$writer" ]] || echo "LiveLists.changed (the writer's part): $((writer / WRITES)) per write"
