#!/usr/bin/env bash
# Warm gzip pages beside nginx: `GET /orders?filter=pending&q=john` with Accept-Encoding: gzip
# from our release build (a session's cached page, compressed once and kept with it) and from
# nginx serving the very same bytes as static files (`gzip_static on`, the .gz beside the
# plain file), in one run, one server at a time. The plain page is measured too. Prints
# requests/s, p50, p99 and the serving processes' CPU per request at 64 connections (2 wrk
# threads) and 1, and the bytes on the wire.
#
#   benchmarks/gzip-bench.sh            # DURATION=10s, data in /tmp/listdata (made if missing)
#   SLICES=10 DURATION=2s benchmarks/gzip-bench.sh
#
# With SLICES=N, both servers run side by side (each idle while the other is measured) and
# the gzip page at 64 connections is measured in N pairs of short slices, ours then nginx's,
# so the machine's swings fall on both alike: each pair's throughput and CPU ratios, then
# their medians.
#
# Only the servers this script started are stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${DURATION:-10s}"
PORT="${PORT:-18183}"
NGINX_PORT="${NGINX_PORT:-18184}"
URL_PATH='/orders?filter=pending&q=john'
source benchmarks/setup.sh
# SERVER_BINARY: another build to measure (a before/after pair runs the script once per binary).
SERVER_BINARY="${SERVER_BINARY:-.build/release/server}"
[[ "$SERVER_BINARY" != .build/release/server ]] || swift build -c release --product server >/dev/null

nginx_root
start_server "$SERVER_BINARY" "$DATA_DIR"
SESSION=(-H "X-Session-ID: gzip-bench")
GZIP=(-H "Accept-Encoding: gzip")
# Capture the page in both codings, byte for byte, for nginx to serve.
curl -fs "${SESSION[@]}" "http://127.0.0.1:$PORT$URL_PATH" -o "$NGINX_ROOT/static/orders.json"
curl -fs "${SESSION[@]}" "${GZIP[@]}" "http://127.0.0.1:$PORT$URL_PATH" -o "$NGINX_ROOT/static/orders.json.gz"
[[ "$(gunzip -c "$NGINX_ROOT/static/orders.json.gz" | cmp - "$NGINX_ROOT/static/orders.json" && echo same)" == same ]] || { echo "gzip body differs"; exit 1; }
nginx_conf "$NGINX_PORT" 2 on "gzip_static on;" "gzip_vary on;" "location = /orders { try_files /orders.json =404; }" >"$NGINX_ROOT/nginx.conf"

measure() {  # name url header...
  local name=$1 url=$2; shift 2
  local headers=()
  for header in "$@"; do headers+=(-H "$header"); done
  wrk -t2 -c16 -d2s "${headers[@]}" "$url" >/dev/null 2>&1 || true   # warm-up
  local wire
  wire=$(curl -s -o /dev/null -w '%{size_header}+%{size_download}' "${headers[@]}" "$url")
  for conns in 64 1; do
    local threads=$(( conns > 1 ? 2 : 1 ))
    local out rps p50 p99
    local before after
    before=$(cpu_ticks)
    out=$(wrk -t"$threads" -c"$conns" -d"$DURATION" --latency "${headers[@]}" "$url")
    after=$(cpu_ticks)
    rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
    p50=$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$out")
    p99=$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$out")
    printf '%-22s %-6s %12s %10s %10s %12s  %s\n' "$name" "$conns" "$rps" "$p50" "$p99" \
      "$(cpu_per_request "$before" "$after" <<<"$out")" "$wire"
  done
}

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
if [[ -n "${SLICES:-}" ]]; then
  start_nginx "$NGINX_PORT" /orders
  slice() {  # url → "req/s cpu_us/req" over one $DURATION slice
    local before after out
    before=$(cpu_ticks)
    out=$(wrk -t2 -c64 -d"$DURATION" -H "X-Session-ID: gzip-bench" -H "Accept-Encoding: gzip" "$1")
    after=$(cpu_ticks)
    echo "$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' <<<"$out") $(cpu_per_request "$before" "$after" <<<"$out")"
  }
  ours_url="http://127.0.0.1:$PORT$URL_PATH" nginx_url="http://127.0.0.1:$NGINX_PORT/orders"
  for url in "$ours_url" "$nginx_url"; do
    wrk -t2 -c16 -d2s -H "X-Session-ID: gzip-bench" -H "Accept-Encoding: gzip" "$url" >/dev/null 2>&1 || true
  done
  printf '%-5s %12s %10s %12s %10s %10s %10s\n' slice "ours req/s" "ours cpu" "nginx req/s" "nginx cpu" "req/s x" "cpu x"
  ratios=()
  for i in $(seq "$SLICES"); do
    read -r ours_rps ours_cpu <<<"$(slice "$ours_url")"
    read -r nginx_rps nginx_cpu <<<"$(SERVING="$NGINX_PIDS" slice "$nginx_url")"
    line=$(awk -v a="$ours_rps" -v b="$nginx_rps" -v c="$ours_cpu" -v d="$nginx_cpu" 'BEGIN {printf "%.2f %.2f", a / b, c / d}')
    ratios+=("$line")
    printf '%-5s %12s %10s %12s %10s %10s %10s\n' "$i" "$ours_rps" "$ours_cpu" "$nginx_rps" "$nginx_cpu" $line
  done
  echo "median: throughput $(printf '%s\n' "${ratios[@]}" | cut -d' ' -f1 | median) x nginx gzip_static," \
    "CPU per request $(printf '%s\n' "${ratios[@]}" | cut -d' ' -f2 | median) x nginx's"
  exit 0
fi
echo "page: $URL_PATH, plain $(stat -c %s "$NGINX_ROOT/static/orders.json") B, gzip $(stat -c %s "$NGINX_ROOT/static/orders.json.gz") B"
printf '%-22s %-6s %12s %10s %10s %12s  %s\n' server conns req/s p50 p99 cpu_us/req "bytes on the wire (head+body)"
# CPU per request (`cpu_ticks`: ours, then nginx's master and workers in $SERVING) is the figure
# this noisy machine disturbs least.
measure "listservice gzip" "http://127.0.0.1:$PORT$URL_PATH" "X-Session-ID: gzip-bench" "Accept-Encoding: gzip"
measure "listservice plain" "http://127.0.0.1:$PORT$URL_PATH" "X-Session-ID: gzip-bench"
stop_server
start_nginx "$NGINX_PORT" /orders
SERVING=$NGINX_PIDS
measure "nginx gzip_static" "http://127.0.0.1:$NGINX_PORT/orders" "X-Session-ID: gzip-bench" "Accept-Encoding: gzip"
measure "nginx plain" "http://127.0.0.1:$NGINX_PORT/orders" "X-Session-ID: gzip-bench"
