#!/usr/bin/env bash
# Instructions per warm session hit, which this noisy machine does not disturb: the server under
# callgrind (embedded data), 500 warm `orders?filter=pending&q=john` on one keep-alive
# connection after 500 to warm up, counters zeroed in between; prints instructions per request
# twice: for requests that repeat the one before byte for byte and for requests that each differ
# by one header (`X-Nonce`); both are handled in full (no answer is kept per connection).
#   benchmarks/warm-instructions.sh BINARY [header ...]     e.g. 'Accept-Encoding: gzip'
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY=${1:?usage: benchmarks/warm-instructions.sh BINARY [header ...]}
shift
PORT="${PORT:-18609}"
source benchmarks/callgrind.sh
for mode in same differ; do
  callgrind_start "$BINARY" --
  python3 benchmarks/warm-requests.py "$PORT" 500 "$mode" "$@"
  callgrind_zero
  python3 benchmarks/warm-requests.py "$PORT" 500 "$mode" "$@"
  callgrind_stop
  total=$(callgrind_total)
  echo "instructions per warm hit, requests that $([[ $mode == same ]] && echo "repeat the one before" || echo "differ"): $((total / 500)) ($total for 500)"
done
