#!/usr/bin/env bash
# Live lists (issue 11), one run, 100,000 orders, release build, server in memory:
#   1. commit -> delta received: 1,000 streams over 100 lists (5 locales x 20 zones, orders by
#      date, 20 rows), writes creating an order (it enters every window);
#   2. the same with 10,000 streams;
#   3. 10,000 streams open, writes touching only 100 of them (9,900 watch tasks);
#   4. write throughput (wrk, 64 connections) with no stream and with 1,000 streams open;
#   5. RSS per idle stream; 6. 10,000 streams reconnecting at once; 7. rows formatted per change.
# The load client (benchmarks/LiveLoad) runs on the same two cores as the server and reads
# its streams one at a time, so its latencies include its own reading: the server's own
# commit -> handed-to-the-sockets histogram is printed beside them.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18610}"
DURATION="${DURATION:-10s}"
source benchmarks/setup.sh
swift build -c release --product server >/dev/null && swift build -c release --product live-load >/dev/null
LOAD=.build/release/live-load

metric() { curl -s "http://127.0.0.1:$PORT/metrics" | awk -v name="$1" '$1 == name {print $2}'; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$SERVER_PID/status"; }
send_histogram() {
  curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^listservice_live_commit_to_send_seconds_(bucket|sum|count)/ {
    if ($1 ~ /count/) c=$2; else if ($1 ~ /sum/) s=$2; else { split($1, p, "\""); b[p[2]]=$2 } }
    END { printf "server commit->send: mean=%.2fms  <=1ms %.0f%%  <=5ms %.0f%%  <=10ms %.0f%%\n", s/c*1000, b["0.001"]/c*100, b["0.005"]/c*100, b["0.01"]/c*100 }'
}
wrk_writes() { # script label
  local out
  out=$(wrk -t2 -c64 -d"$DURATION" -s "benchmarks/$1" "http://127.0.0.1:$PORT")
  printf '%-36s req/s=%s\n' "$2" "$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
}

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"

start_server .build/release/server "$DATA_DIR"
echo "== 1. 1,000 streams over 100 lists, 200 writes 20 ms apart"
$LOAD "$PORT" 1000 --lists 100 --writes 200 --interval 20
send_histogram
formatted_before=$(metric listservice_rows_formatted_total)
$LOAD "$PORT" 1000 --lists 100 --writes 20 --interval 100 >/dev/null
echo "== 7. rows formatted per write (1,000 streams, 100 locale and zone pairs): $(( ($(metric listservice_rows_formatted_total) - formatted_before) / 20 )) (the answer's own row, and one per pair whose window the row entered)"
stop_server

# 10,000 streams are 10,000 connections: room for the writer beside them.
start_server .build/release/server "$DATA_DIR" --max-connections 11000
echo "== 2. 10,000 streams over 100 lists, 20 writes 200 ms apart"
$LOAD "$PORT" 10000 --lists 100 --writes 20 --interval 200
send_histogram
stop_server

start_server .build/release/server "$DATA_DIR" --max-connections 11000
echo "== 3. 10,000 streams open (9,900 on /tasks/live), 100 writes touching the 100 orders streams"
$LOAD "$PORT" 10000 --lists 100 --idle-path "/tasks/live?view=active" --writes 100 --interval 20
send_histogram
stop_server

start_server .build/release/server "$DATA_DIR"
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

start_server .build/release/server "$DATA_DIR" --max-connections 11000
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
