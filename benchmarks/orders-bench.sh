#!/usr/bin/env bash
# Orders benchmark with 100,000 orders from ../shared/data/generate.py:
#   1. start-up: time to load orders.json, and RSS after loading;
#   2. warm: ../shared/peers/bench.sh with our server as a target, one session for all of wrk
#      (HEADER='X-Session-ID: bench'), so our figures and the peers' come from one run;
#   3. cold: every request a new session and shared caches off (--shared-pages 0);
#   4. memory: RSS growth with 10,000 live sessions.
#
#   benchmarks/orders-bench.sh [peer ...]     # default peers: hummingbird nginx
#
# shared/ is read-only, so the peers are copied once to PEERS_DIR (default
# /tmp/listservice-peers) and built there on first use (BUILD=1: hummingbird takes ~2.5 min).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PORT="${PORT:-18282}"
DURATION="${DURATION:-10s}"
PEERS_DIR="${PEERS_DIR:-/tmp/listservice-peers}"
PEERS=("$@")
((${#PEERS[@]})) || PEERS=(hummingbird nginx)
URLS=("/orders?filter=pending&q=john" "/orders?filter=all&sort=total&order=desc&limit=50")

source benchmarks/setup.sh
swift build -c release --product server >/dev/null
BIN="$ROOT/.build/release/server"

rss() { awk '/^VmRSS:/ {printf "%.1f", $2/1024}' "/proc/$1/status"; }

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)  orders: 100000"

echo "== start-up"
start_server "$BIN" "$DATA_DIR"
grep -o 'event=ready.*' "$SERVER_LOG"
echo "rss_after_load_mib=$(rss "$SERVER_PID")"

echo "== memory: 10,000 sessions"
python3 benchmarks/sessions.py "$PORT" "$SERVER_PID" 10000 "/orders?filter=pending&q=john"
stop_server

echo "== cold (new session per request, --shared-pages 0)"
start_server "$BIN" "$DATA_DIR" --shared-pages 0
for url in "${URLS[@]}"; do
  for conns in 1 64; do
    threads=$(( conns > 1 ? 2 : 1 ))
    out=$(wrk -t"$threads" -c"$conns" -d"$DURATION" --latency -s benchmarks/cold.lua "http://127.0.0.1:$PORT$url")
    printf '%-55s c=%-3s req/s=%-10s p50=%-9s p99=%s\n' "$url" "$conns" "$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")" \
      "$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$out")" \
      "$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$out")"
  done
done
curl -s "http://127.0.0.1:$PORT/metrics" | grep -E '^listservice_(cache|recomp|rows)'   # session hits must be 0
stop_server

echo "== warm, beside the peers (../shared/peers/bench.sh, HEADER='X-Session-ID: bench')"
start_server "$BIN" "$DATA_DIR"
if [[ ! -d "$PEERS_DIR/peers" ]]; then
  mkdir -p "$PEERS_DIR" && cp -r "$SHARED/peers" "$SHARED/data" "$PEERS_DIR/" && chmod -R u+w "$PEERS_DIR"
fi
(cd "$PEERS_DIR/peers" && BUILD=1 HEADER='X-Session-ID: bench' DATA_DIR="$DATA_DIR" DURATION="$DURATION" \
  ./bench.sh "${PEERS[@]}" "project=http://127.0.0.1:$PORT")
curl -s "http://127.0.0.1:$PORT/metrics" | grep -E '^listservice_(cache|recomp)'
