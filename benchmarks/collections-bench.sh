#!/usr/bin/env bash
# Tasks and earthquakes: cold and warm list figures with 20,000 tasks and 50,000 earthquakes,
# and the start-up time of a 50,000-feature USGS-format feed.
#
#   benchmarks/collections-bench.sh        # DURATION=5s
#
# Warm: one session for all of wrk (X-Session-ID), so every request is a view-model hit.
# Cold: a new session per request (cold.lua) and --shared-pages 0, so every request computes.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA_DIR="${DATA_DIR:-/tmp/listdata-collections}"
FEED_DIR="${FEED_DIR:-/tmp/listdata-feed}"
PORT="${PORT:-18383}"
DURATION="${DURATION:-5s}"
URLS=(
  "/tasks"
  "/tasks?view=all&sort=dueDate&q=report"
  "/quakes?date=2026-11-10"
  "/quakes?date=2026-11-10&q=alaska&sort=magnitude"
  "/quakes/map?date=2026-11-10"
)

source benchmarks/setup.sh
# Only the feed is large here, so the load time is the feed's.
[[ -s "$FEED_DIR/quakes.geojson" ]] || python3 "$SHARED/data/generate.py" --orders 10 --tasks 10 --quakes 50000 --out "$FEED_DIR"
swift build -c release --product server >/dev/null
BIN="$PWD/.build/release/server"

measure() { # url conns extra wrk args...
  local url="$1" conns="$2"; shift 2
  local threads=$(( conns > 1 ? 2 : 1 )) out
  out=$(wrk -t"$threads" -c"$conns" -d"$DURATION" --latency "$@" "http://127.0.0.1:$PORT$url")
  printf '| `%s` | %s | %s | %s | %s | %s |\n' "$url" "$conns" "$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$out")" \
    "$(curl -s -o /dev/null -w '%{size_download}' -H 'X-Session-ID: size' "http://127.0.0.1:$PORT$url")"
}

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
echo "== start-up with a 50,000-feature feed (10 orders, 10 tasks)"
start_server "$BIN" "$FEED_DIR"
grep -o 'event=ready.*' "$SERVER_LOG"
stop_server

echo "== warm (one session), 20,000 tasks and 50,000 earthquakes"
start_server "$BIN" "$DATA_DIR"
grep -o 'event=ready.*' "$SERVER_LOG"
echo "| URL | conns | req/s | p50 | p99 | body bytes |"
for url in "${URLS[@]}"; do
  wrk -t2 -c16 -d2s -H 'X-Session-ID: bench' "http://127.0.0.1:$PORT$url" >/dev/null
  for conns in 64 1; do measure "$url" "$conns" -H 'X-Session-ID: bench'; done
done
stop_server

echo "== cold (new session per request, --shared-pages 0)"
start_server "$BIN" "$DATA_DIR" --shared-pages 0
echo "| URL | conns | req/s | p50 | p99 | body bytes |"
for url in "${URLS[@]}"; do
  for conns in 1 64; do measure "$url" "$conns" -s benchmarks/cold.lua; done
done
curl -s "http://127.0.0.1:$PORT/metrics" | grep -E '^listservice_(cache|recomp)'
