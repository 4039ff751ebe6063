# Sourced by the benchmark scripts, from the repository's root: wrk installed (Debian), and
# the standard data set (100,000 orders, 20,000 tasks, 50,000 earthquakes from
# shared/data/generate.py) in $DATA_DIR. $SHARED is shared/, beside the repository.
SHARED="${SHARED:-$PWD/../shared}"
DATA_DIR="${DATA_DIR:-/tmp/listdata}"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
[[ -s "$DATA_DIR/orders.json" ]] || python3 "$SHARED/data/generate.py" --orders 100000 --tasks 20000 --quakes 50000 --out "$DATA_DIR"

# One server at a time, on $PORT: `start_server BINARY DATA_DIR [option ...]` starts it in memory
# with no access log and waits until /health answers (its stderr goes to $SERVER_LOG);
# `stop_server` stops it with SIGTERM, as leaving the script does.
SERVER_PID=""
# A benchmark's load comes from one address: the per-caller rate limits are turned off for the
# builds that have them (a build from before them is started as it was).
unlimited() { "$1" --help 2>/dev/null | grep -q -- '--rate-limit' && echo --rate-limit off --write-rate-limit off || true; }
SERVER_LOG="${SERVER_LOG:-/tmp/listservice-bench-server.log}"
start_server() {
  local binary=$1 data=$2; shift 2
  "$binary" --port "$PORT" --data "$data" --in-memory --no-access-log $(unlimited "$binary") "$@" 2>"$SERVER_LOG" &
  SERVER_PID=$!
  for _ in $(seq 600); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && return 0; sleep 0.1; done
  echo "server did not start"; cat "$SERVER_LOG"; exit 1
}
stop_server() { [[ -n "$SERVER_PID" ]] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }
trap stop_server EXIT
