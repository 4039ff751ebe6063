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


# The server's CPU time (user + system, in clock ticks) so far.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat"; }

# One wrk run: requests/s, p50, p99, and the server's CPU time per request, which a noisy
# machine disturbs far less than throughput.
measure() { # label conns wrk-args...
  local label=$1 conns=$2; shift 2
  local threads=$(( conns > 1 ? 2 : 1 ))
  local out before after
  before=$(cpu_ticks)
  out=$(wrk -t"$threads" -c"$conns" -d"$DURATION" --latency "$@")
  after=$(cpu_ticks)
  printf '%-8s %-22s c=%-3s req/s=%-10s p50=%-9s p99=%-9s cpu_us/req=%s\n' "$name" "$label" "$conns" \
    "$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$out")" \
    "$(awk -v a="$after" -v b="$before" -v hz="$(getconf CLK_TCK)" '/requests in/ {printf "%.1f", (a - b) / hz * 1e6 / $1}' <<<"$out")"
}

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
