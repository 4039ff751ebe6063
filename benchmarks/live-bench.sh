#!/usr/bin/env bash
# Live lists (issue 11), one run, 100,000 orders, release build, server in memory:
#   1. commit -> delta received: 1,000 streams over 100 lists (5 locales x 20 zones, orders by
#      date, 20 rows), writes creating an order (it enters every window);
#   2. the same with 10,000 streams;
#   3. 10,000 streams open, writes touching only 100 of them (9,900 watch tasks);
#   4. write throughput (wrk, 64 connections) with no stream and with 1,000 streams open;
#   5. RSS per idle stream; 6. 10,000 streams reconnecting at once; 7. rows formatted per change.
# The server runs pinned to core 0 and the load client (benchmarks/LiveLoad) to core 1
# (taskset), so the client's reading does not take the server's core; the client reads its
# streams one at a time, so its latencies include its own reading, as the floor's do. Beside
# every delivered figure: the socket floor (benchmarks/socket-floor.c, one event sent to and
# read from the same number of loopback streams, measured just before and after each load) and
# the ratio to their mean; the server's own commit -> written-to-the-sockets histogram is
# printed too.
#
#   SERVER_BINARY=/tmp/before/server SCENARIOS="1 4" benchmarks/live-bench.sh
# measures a given build (default: builds and runs .build/release/server) and only the scenarios
# named (default: all), so two builds can be alternated in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18610}"
DURATION="${DURATION:-10s}"
source benchmarks/setup.sh
SERVER_BINARY="${SERVER_BINARY:-}"
SCENARIOS="${SCENARIOS:-1 2 3 4 5 6}"
[[ -n "$SERVER_BINARY" ]] || { swift build -c release --product server >/dev/null; SERVER_BINARY=.build/release/server; }
swift build -c release --product live-load >/dev/null
runs() { [[ " $SCENARIOS " == *" $1 "* ]]; }
FLOOR=/tmp/listservice-socket-floor
cc -O2 -o "$FLOOR" benchmarks/socket-floor.c
SERVER_CORES="${SERVER_CORES:-0}"  # one core each (the floor pins to a single core number)
CLIENT_CORES="${CLIENT_CORES:-1}"
LOAD="taskset -c $CLIENT_CORES .build/release/live-load"
SERVER_PREFIX="taskset -c $SERVER_CORES"

# The floor for N streams, its sender on the server's core and its reader on the client's:
# "median last" in ms.
floor() { "$FLOOR" "$1" "$SERVER_CORES" "$CLIENT_CORES" | awk -F'[= ]' '/^floor_/ {print $2, $4}'; }
# Runs the load client and prints its summary with the ratios to the floor of its stream count,
# measured just before and just after it (the machine's speed drifts within a minute): the
# ratios are to the mean of the two.
live_load() { # streams args...
  local streams=$1 out median1 last1 median2 last2
  read -r median1 last1 <<<"$(floor "$streams")"
  out=$($LOAD "$PORT" "$@" | tail -1)
  read -r median2 last2 <<<"$(floor "$streams")"
  echo "$out"
  awk -v line="$out" -v m1="$median1" -v l1="$last1" -v m2="$median2" -v l2="$last2" 'BEGIN {
    match(line, /p50=[0-9.]+/); p50 = substr(line, RSTART + 4, RLENGTH - 4)
    match(line, /p99=[0-9.]+/); p99 = substr(line, RSTART + 4, RLENGTH - 4)
    median = (m1 + m2) / 2; last = (l1 + l2) / 2
    printf "floor (before / after): median stream %.2f / %.2f ms, last stream %.2f / %.2f ms  ->  p50/median %.2f (target <= 1.5), p99/last %.2f (target <= 1.5)\n",
      m1, m2, l1, l2, p50 / median, p99 / last }'
}

metric() { curl -s "http://127.0.0.1:$PORT/metrics" | awk -v name="$1" '$1 == name {print $2}'; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$SERVER_PID/status"; }
send_histogram() {
  curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^listservice_live_commit_to_send_seconds_(bucket|sum|count)/ {
    if ($1 ~ /count/) c=$2; else if ($1 ~ /sum/) s=$2; else { split($1, p, "\""); b[p[2]]=$2 } }
    END { printf "server commit->written to the sockets: mean=%.2fms  <=1ms %.0f%%  <=5ms %.0f%%  <=10ms %.0f%%\n", s/c*1000, b["0.001"]/c*100, b["0.005"]/c*100, b["0.01"]/c*100 }'
}
wrk_writes() { # script label
  local out before after
  before=$(cpu_ticks)
  out=$(taskset -c "$CLIENT_CORES" wrk -t2 -c64 -d"$DURATION" -s "benchmarks/$1" "http://127.0.0.1:$PORT")
  after=$(cpu_ticks)
  printf '%-36s req/s=%-9s server cpu_us/req=%s\n' "$2" "$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")" \
    "$(cpu_per_request "$before" "$after" <<<"$out")"
}

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
echo "server pinned to core(s) $SERVER_CORES, load client and floor to core(s) $CLIENT_CORES (taskset)"

if runs 1; then
  start_server "$SERVER_BINARY" "$DATA_DIR"
  echo "== 1. 1,000 streams over 100 lists, 200 writes 20 ms apart"
  live_load 1000 1000 --lists 100 --writes 200 --interval 20
  send_histogram
  formatted_before=$(metric listservice_rows_formatted_total)
  $LOAD "$PORT" 1000 --lists 100 --writes 20 --interval 100 >/dev/null
  echo "== 7. rows formatted per write (1,000 streams, 100 locale and zone pairs): $(( ($(metric listservice_rows_formatted_total) - formatted_before) / 20 )) (the answer's own row, and one per pair whose window the row entered)"
  stop_server
fi

# 10,000 streams are 10,000 connections: room for the writer beside them.
if runs 2; then
  start_server "$SERVER_BINARY" "$DATA_DIR" --max-connections 11000
  echo "== 2. 10,000 streams over 100 lists, 20 writes 200 ms apart"
  live_load 10000 10000 --lists 100 --writes 20 --interval 200
  send_histogram
  stop_server
fi

if runs 3; then
  start_server "$SERVER_BINARY" "$DATA_DIR" --max-connections 11000
  echo "== 3. 10,000 streams open (9,900 on /tasks/live), 100 writes touching the 100 orders streams"
  $LOAD "$PORT" 10000 --lists 100 --idle-path "/tasks/live?view=active" --writes 100 --interval 20
  send_histogram
  stop_server
fi

if runs 4; then
  start_server "$SERVER_BINARY" "$DATA_DIR"
  echo "== 4. write throughput, 64 connections, $DURATION"
  wrk_writes patch.lua "PATCH, no stream"
  wrk_writes create-order.lua "POST /orders, no stream"
  $LOAD "$PORT" 1000 --lists 100 --hold 40 >/dev/null &
  LOAD_PID=$!
  sleep 3
  wrk_writes patch.lua "PATCH, 1,000 streams open"
  wrk_writes create-order.lua "POST /orders, 1,000 streams watching"
  kill "$LOAD_PID" 2>/dev/null; wait "$LOAD_PID" 2>/dev/null || true
  stop_server
fi

if runs 5 || runs 6; then
  start_server "$SERVER_BINARY" "$DATA_DIR" --max-connections 11000
  echo "== 5. memory per idle stream, 10,000 streams over 100 lists"
  before=$(rss_kib)
  $LOAD "$PORT" 10000 --lists 100 --hold 6 >/dev/null &
  LOAD_PID=$!
  sleep 5
  after=$(rss_kib)
  echo "rss before=${before} KiB  with 10,000 streams=${after} KiB  per stream=$(( (after - before) * 1024 / 10000 )) bytes"
  wait "$LOAD_PID" || true
  echo "== 6. 10,000 streams reconnecting at once"
  lists_made=$(metric listservice_recomputations_total)
  $LOAD "$PORT" 10000 --lists 100 --reconnect --hold 0
  echo "list computations during both rounds: $(( $(metric listservice_recomputations_total) - lists_made )) recomputations; live lists now $(metric listservice_live_lists)"
  stop_server
fi
