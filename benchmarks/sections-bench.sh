#!/usr/bin/env bash
# What sections (issue 30, `group=`) cost, at 1,000,000 orders: one build, a grouped cold page
# beside the same page without `group`, alternated, ROUNDS rounds, each a fresh in-memory
# server with --shared-pages 0 and a new session per request (cold.lua), 1 connection:
#   - the whole list by date (`sort=date`) beside `sort=date&group=day` (and `group=month`):
#     every day's section found, and its orders' totals summed, per request;
#   - `filter=pending&q=john` beside the same with `group=day`;
#   - each page right after a write (POST /orders), when a grouped list's sections are found
#     again (they are kept until the items change): the median of 15 answers' times.
# Server CPU per request is the steadier figure; the ratio is the grouped page's over its twin's.
# SERVER_BINARY may name several builds, measured in turn (a before/after pair alternated:
# "BEFORE AFTER BEFORE AFTER"); PATHS picks the pages and AFTER_WRITE=0 leaves out the writes.
# SLICES=N measures instead N short slices of DURATION per build, each page once per slice in
# turn, and prints each grouped page's CPU over its twin's (the same path without `group`) per
# slice and their median: a machine whose speed drifts moves both pages of a slice alike.
# FLOOR=1 then serves each page's very bytes (as the last build writes them) from nginx
# (static files) and measures them the same way, with `sendfile on` (the file's pages handed to the socket, no copy) and `off` (read
# into nginx's buffer, then written: a copy from memory, as ours is): what merely sending that
# many bytes costs a static server here, the floor under the grouped page's extra bytes.
#
#   SERVER_BINARY=.build/release/server benchmarks/sections-bench.sh
#   SERVER_BINARY="A B A B" ROUNDS=1 PATHS="sort=date sort=date&group=day" AFTER_WRITE=0 benchmarks/sections-bench.sh
#   FLOOR=1 ROUNDS=1 PATHS="sort=date sort=date&group=day" AFTER_WRITE=0 benchmarks/sections-bench.sh
#   SERVER_BINARY="A B" SLICES=8 DURATION=2s benchmarks/sections-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18493}"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-6s}"
DATA_DIR="${DATA_DIR:-/tmp/listservice-scale/1000000}"
[[ -s "$DATA_DIR/orders.json" ]] || { mkdir -p "$DATA_DIR"; python3 ../shared/data/generate.py --orders 1000000 --tasks 1000 --quakes 1000 --out "$DATA_DIR" >/dev/null; }
source benchmarks/setup.sh
SERVER_BINARY="${SERVER_BINARY:-.build/release/server}"
[[ "$SERVER_BINARY" != .build/release/server ]] || swift build -c release --product server >/dev/null

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)  data: $DATA_DIR"
PATHS="${PATHS:-sort=date sort=date&group=day sort=date&group=month filter=pending&q=john filter=pending&q=john&group=day}"
ORDER_BODY=$(sed -n "s/^wrk.body = '\(.*\)'$/\1/p" benchmarks/create-order.lua)
# Server CPU µs per request of one wrk run of $DURATION on a cold page.
slice_cpu() {
  local before after out
  before=$(cpu_ticks)
  out=$(wrk -t1 -c1 -d"$DURATION" -s benchmarks/cold.lua "$1")
  after=$(cpu_ticks)
  cpu_per_request "$before" "$after" <<<"$out"
}
for binary in $SERVER_BINARY; do
  echo "== $binary"
  start_server "$binary" "$DATA_DIR" --shared-pages 0
  base="http://127.0.0.1:$PORT/orders"
  curl -s -o /dev/null "$base?sort=date&group=day"  # the formatters of the display, made once
  if [[ -n "${SLICES:-}" ]]; then
    declare -A ratios=()
    for slice in $(seq "$SLICES"); do
      declare -A cpu=()
      line="slice $slice:"
      for path in $PATHS; do
        cpu[$path]=$(slice_cpu "$base?$path")
        line+=" $path ${cpu[$path]}"
      done
      for path in $PATHS; do
        twin=$(sed 's/&group=[a-z]*//' <<<"$path")
        [[ "$twin" != "$path" && -n "${cpu[$twin]:-}" ]] || continue
        ratio=$(awk -v a="${cpu[$path]}" -v b="${cpu[$twin]}" 'BEGIN {printf "%.3f", a / b}')
        ratios[$path]+="$ratio "
        line+=" ($path x$ratio)"
      done
      echo "$line"
    done
    for path in "${!ratios[@]}"; do
      echo "median: $path $(tr ' ' '\n' <<<"${ratios[$path]}" | grep . | median) x its twin (slices: ${ratios[$path]})"
    done
    unset ratios
    stop_server
    continue
  fi
  for round in $(seq "$ROUNDS"); do
    echo "== round $round"
    for path in $PATHS; do
      name="" measure "$path" 1 -s benchmarks/cold.lua "$base?$path"
    done
    [[ "${AFTER_WRITE:-1}" == 1 ]] || continue
    for path in "sort=date" "sort=date&group=day" "sort=date&group=month"; do
      times=()
      for i in $(seq 15); do
        curl -s -o /dev/null -X POST -H 'Content-Type: application/json' --data "$ORDER_BODY" "$base"
        times+=("$(curl -s -o /dev/null -w '%{time_total}' -H "X-Session-ID: after-write-$round-$i-$RANDOM" "$base?$path")")
      done
      printf '         %-22s after a write: median %s ms\n' "$path" \
        "$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)] * 1000}')"
    done
  done
  stop_server
done

[[ "${FLOOR:-0}" == 1 ]] || exit 0
nginx_root
start_server "${SERVER_BINARY##* }" "$DATA_DIR" --shared-pages 0  # the last build's bytes
index=0
for path in $PATHS; do
  index=$((index + 1))
  curl -fs -H "X-Session-ID: floor-$index" "http://127.0.0.1:$PORT/orders?$path" -o "$NGINX_ROOT/static/page$index.json"
done
stop_server
NGINX_PORT=$((PORT + 1))
for sendfile in on off; do
  nginx_conf "$NGINX_PORT" 1 "$sendfile" >"$NGINX_ROOT/nginx.conf"
  start_nginx "$NGINX_PORT" /page1.json
  echo "== nginx serving the same bytes (the floor), sendfile $sendfile"
  index=0
  for path in $PATHS; do
    index=$((index + 1))
    name="" SERVING="$NGINX_PIDS" \
      measure "$path ($(stat -c %s "$NGINX_ROOT/static/page$index.json") B)" 1 "http://127.0.0.1:$NGINX_PORT/page$index.json"
  done
  stop_nginx
done
