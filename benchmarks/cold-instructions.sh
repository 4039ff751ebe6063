#!/usr/bin/env bash
# Instructions per cold page, which this noisy machine does not disturb: the server under
# callgrind on the standard 100,000 orders (setup.sh) with --shared-pages 0, 20 requests to warm
# up, then N requests each in a new session (every one formats its page), counters zeroed in
# between; prints instructions per request for each query given.
#   benchmarks/cold-instructions.sh BINARY [QUERY ...]   (default: sort=date)
# e.g. benchmarks/cold-instructions.sh /tmp/server 'sort=date' 'sort=date&group=day'
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY=${1:?usage: benchmarks/cold-instructions.sh BINARY [QUERY ...]}
shift
QUERIES=("${@:-sort=date}")
N="${N:-100}"
PORT="${PORT:-18610}"
source benchmarks/setup.sh
source benchmarks/callgrind.sh
for query in "${QUERIES[@]}"; do
  callgrind_start "$BINARY" -- --data "$DATA_DIR" --shared-pages 0
  for i in $(seq 20); do curl -s -o /dev/null -H "X-Session-ID: warm-$i" "http://127.0.0.1:$PORT/orders?$query"; done
  callgrind_zero
  for i in $(seq "$N"); do curl -s -o /dev/null -H "X-Session-ID: cold-$i" "http://127.0.0.1:$PORT/orders?$query"; done
  callgrind_stop
  echo "$query: instructions per cold page: $(($(callgrind_total) / N))"
done
