#!/usr/bin/env bash
# Warm requests that differ (benchmarks/varied-mix.lua: the 18 filter × sort pages of /orders in
# turn, each request with its own X-Nonce, one session), from our release build beside nginx
# serving the same 18 bodies from files (plain, and gzip_static for gzip), in one run: both
# servers up side by side, each idle while the other is measured, in N pairs of short slices
# (ours then nginx's), plain and gzip, 64 connections. Prints each pair's throughput and CPU per
# request ratios and their medians. With BEFORE=BINARY a second build is measured in the same
# slices (ours, before, nginx), for a before/after in one run.
#
#   benchmarks/varied-bench.sh [BINARY]     SLICES=6 DURATION=3s BEFORE=/tmp/server-old
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${DURATION:-3s}"
SLICES="${SLICES:-6}"
PORT="${PORT:-18185}"
BEFORE_PORT="${BEFORE_PORT:-18186}"
NGINX_PORT="${NGINX_PORT:-18187}"
source benchmarks/setup.sh
BINARY="${1:-.build/release/server}"
[[ "$BINARY" != .build/release/server ]] || swift build -c release --product server >/dev/null
SESSION="X-Session-ID: varied-bench"

nginx_root
start_server "$BINARY" "$DATA_DIR"
OURS_PID=$SERVER_PID
BEFORE_PID=""
if [[ -n "${BEFORE:-}" ]]; then
  "$BEFORE" --port "$BEFORE_PORT" --data "$DATA_DIR" --in-memory --no-access-log $(unlimited "$BEFORE") 2>/dev/null &
  BEFORE_PID=$!
  for _ in $(seq 600); do curl -fs -o /dev/null "http://127.0.0.1:$BEFORE_PORT/health" && break; sleep 0.1; done
  trap 'kill -TERM "$BEFORE_PID" 2>/dev/null || true; stop_all' EXIT
fi
# The 18 bodies, byte for byte, plain and gzip, for nginx to serve as files.
for filter in all pending completed cancelled highValue currentMonth; do
  for sort in date total customer; do
    file="$NGINX_ROOT/static/orders-$filter-$sort.json"
    curl -fs -H "$SESSION" "http://127.0.0.1:$PORT/orders?filter=$filter&sort=$sort" -o "$file"
    curl -fs -H "$SESSION" -H "Accept-Encoding: gzip" "http://127.0.0.1:$PORT/orders?filter=$filter&sort=$sort" -o "$file.gz"
    gunzip -c "$file.gz" | cmp -s - "$file" || { echo "the gzip body of $filter/$sort differs"; exit 1; }
  done
done
nginx_conf "$NGINX_PORT" 2 on "gzip_static on;" "gzip_vary on;" \
  'location = /orders { try_files /orders-$arg_filter-$arg_sort.json =404; }' >"$NGINX_ROOT/nginx.conf"
start_nginx "$NGINX_PORT" "/orders?filter=all&sort=date"

slice() {  # pids url header... → "req/s cpu_us/req" over one $DURATION slice
  local pids=$1 url=$2; shift 2
  local headers=() before after out
  for header in "$@"; do headers+=(-H "$header"); done
  before=$(SERVING=$pids cpu_ticks)
  out=$(wrk -t2 -c64 -d"$DURATION" -s benchmarks/varied-mix.lua "${headers[@]}" "$url")
  after=$(SERVING=$pids cpu_ticks)
  echo "$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' <<<"$out") $(cpu_per_request "$before" "$after" <<<"$out")"
}

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
echo "bodies: $(cat "$NGINX_ROOT"/static/*.json | wc -c) B plain, $(cat "$NGINX_ROOT"/static/*.json.gz | wc -c) B gzip, 18 of each"
for coding in plain gzip; do
  extra=()
  [[ $coding == gzip ]] && extra=("Accept-Encoding: gzip")
  for url in "http://127.0.0.1:$PORT" "http://127.0.0.1:$NGINX_PORT"; do  # warm-up
    wrk -t2 -c16 -d2s -s benchmarks/varied-mix.lua -H "$SESSION" ${extra[@]+-H "${extra[@]}"} "$url" >/dev/null 2>&1 || true
  done
  printf '%-6s %-5s %12s %9s %12s %9s %12s %9s %8s %8s\n' "$coding" slice "ours req/s" "cpu µs" "before req/s" "cpu µs" \
    "nginx req/s" "cpu µs" "ours x" "before x"
  ratios=()
  for i in $(seq "$SLICES"); do
    read -r ours ours_cpu <<<"$(slice "$OURS_PID" "http://127.0.0.1:$PORT" "$SESSION" ${extra[@]+"${extra[@]}"})"
    before="-" before_cpu="-"
    if [[ -n "$BEFORE_PID" ]]; then
      read -r before before_cpu <<<"$(slice "$BEFORE_PID" "http://127.0.0.1:$BEFORE_PORT" "$SESSION" ${extra[@]+"${extra[@]}"})"
    fi
    read -r nginx nginx_cpu <<<"$(slice "$NGINX_PIDS" "http://127.0.0.1:$NGINX_PORT" "$SESSION" ${extra[@]+"${extra[@]}"})"
    line=$(awk -v a="$ours" -v b="$before" -v n="$nginx" 'BEGIN {printf "%.2f %s", a / n, (b == "-" ? "-" : sprintf("%.2f", b / n))}')
    ratios+=("$line")
    printf '%-6s %-5s %12s %9s %12s %9s %12s %9s %8s %8s\n' "$coding" "$i" "$ours" "$ours_cpu" "$before" "$before_cpu" \
      "$nginx" "$nginx_cpu" $line
  done
  echo "$coding median: ours $(printf '%s\n' "${ratios[@]}" | cut -d' ' -f1 | median) x nginx" \
    "$([[ -n "$BEFORE_PID" ]] && echo ", before $(printf '%s\n' "${ratios[@]}" | cut -d' ' -f2 | median) x nginx")"
done
