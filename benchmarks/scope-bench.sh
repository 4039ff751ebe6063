#!/usr/bin/env bash
# Lists per access scope beside the lists without one, and what a bearer token costs, in one
# run on the standard data set (server CPU µs per request, as compare-builds.sh measures):
#   anonymous  no --jwt-keys: the list as before identities (everything)
#   staff      an RS256 token whose scope is everything (its verification cached)
#   customer   an RS256 token scoped to c-0042's orders (about 80 of 100,000)
#   verify     staff, but cycling through 15,000 tokens: more than the verification cache
#              holds, so every request checks an RS256 signature
# each warm (one session) and cold (a new session per request, --shared-pages 0).
#
#   benchmarks/scope-bench.sh [BINARY]      # default: a release build of this checkout
#   ROUNDS=2 DURATION=5s
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/setup.sh
PORT="${PORT:-18384}"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-5s}"
BINARY="${1:-}"
if [[ -z "$BINARY" ]]; then
  swift build -c release --product server >/dev/null
  BINARY=.build/release/server
fi
python3 -c "import cryptography" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check cryptography >/dev/null
TOKENS=$(mktemp -d)
trap 'stop_server; rm -rf "$TOKENS"' EXIT
python3 benchmarks/tokens.py "$TOKENS" --rotating 15000
LIST="/orders?filter=pending&sort=total"

URL="http://127.0.0.1:$PORT$LIST"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)  binary: $BINARY  list: $LIST"
for round in $(seq "$ROUNDS"); do
  echo "== round $round"
  for cache in shared cold; do
    extra=(); [[ $cache == cold ]] && extra=(--shared-pages 0)
    mode=(); [[ $cache == cold ]] && mode=(cold)
    start_server "$BINARY" "$DATA_DIR" "${extra[@]}"
    wrk -t2 -c16 -d2s -H 'X-Session-ID: warm-up' "$URL" >/dev/null
    for conns in 64 1; do
      if [[ $cache == cold ]]; then
        measure "anonymous cold" "$conns" -s benchmarks/cold.lua "$URL"
      else
        measure "anonymous warm" "$conns" -H 'X-Session-ID: anonymous' "$URL"
      fi
    done
    stop_server
    start_server "$BINARY" "$DATA_DIR" --jwt-keys "$TOKENS/jwks.json" "${extra[@]}"
    for conns in 64 1; do
      for who in staff customer; do
        measure "$who ${cache/shared/warm}" "$conns" -s benchmarks/bearer.lua "$URL" -- "$TOKENS/$who.token" "${mode[@]}"
      done
      [[ $cache == shared ]] && measure "verify warm" "$conns" -s benchmarks/bearer.lua "$URL" -- "$TOKENS/rotating.tokens"
    done
    stop_server
  done
done
