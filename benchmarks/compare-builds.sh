#!/usr/bin/env bash
# Before/after in one run: two (or more) server binaries measured alternately on the standard
# data set, so a refactoring can show it changed nothing in speed. For each binary and round:
# start-up time and RSS after load, /health, a warm list (one session) and cold lists (a new
# session per request, --shared-pages 0), at 64 connections and at 1.
#
#   benchmarks/compare-builds.sh NAME=BINARY[@ARGS] ...   # e.g. before=/tmp/before/server after=.build/release/server
#                                                           # poll=.build/release/server@--event-backend,poll
#   ROUNDS=2 DURATION=5s
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/setup.sh
PORT="${PORT:-18383}"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-5s}"
WARM="/orders?filter=pending&q=john"

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)  data: $DATA_DIR"
for round in $(seq "$ROUNDS"); do
  echo "== round $round"
  for spec in "$@"; do
    name=${spec%%=*}; target=${spec#*=}; binary=${target%%@*}; args=()
    [[ "$target" == *@* ]] && IFS=, read -r -a args <<<"${target#*@}"
    start_server "$binary" "$DATA_DIR" "${args[@]}"
    printf '%-8s start-up %s rss_mib=%s\n' "$name" "$(grep -o 'duration_ms=[0-9]*' "$SERVER_LOG")" \
      "$(python3 -c "import sys; sys.path.insert(0, 'benchmarks'); import procstat; print(f'{procstat.rss_mib($SERVER_PID):.1f}')")"
    wrk -t2 -c16 -d2s "http://127.0.0.1:$PORT$WARM" -H 'X-Session-ID: bench' >/dev/null   # warm-up
    for conns in 64 1; do
      measure /health "$conns" "http://127.0.0.1:$PORT/health"
      measure "warm $WARM" "$conns" -H 'X-Session-ID: bench' "http://127.0.0.1:$PORT$WARM"
    done
    stop_server
    start_server "$binary" "$DATA_DIR" "${args[@]}" --shared-pages 0
    for conns in 64 1; do measure "cold $WARM" "$conns" -s benchmarks/cold.lua "http://127.0.0.1:$PORT$WARM"; done
    stop_server
  done
done
