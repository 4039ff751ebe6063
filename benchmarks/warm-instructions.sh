#!/usr/bin/env bash
# Instructions per warm session hit, which this noisy machine does not disturb: the server under
# callgrind (embedded data), 500 warm `orders?filter=pending&q=john` on one keep-alive
# connection after 500 to warm up, counters zeroed in between; prints instructions per request.
#   benchmarks/warm-instructions.sh BINARY [curl arguments, e.g. -H 'Accept-Encoding: gzip']
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY=${1:?usage: benchmarks/warm-instructions.sh BINARY [curl arguments]}
shift
PORT="${PORT:-18609}"
source benchmarks/callgrind.sh
callgrind_start "$BINARY" --
urls=()
for _ in $(seq 500); do urls+=("http://127.0.0.1:$PORT/orders?filter=pending&q=john"); done
curl -s -H "X-Session-ID: warm-instructions" "$@" "${urls[@]}" >/dev/null
callgrind_zero
curl -s -H "X-Session-ID: warm-instructions" "$@" "${urls[@]}" >/dev/null
callgrind_stop
total=$(callgrind_total)
echo "instructions per warm hit: $((total / 500)) ($total for 500)"
