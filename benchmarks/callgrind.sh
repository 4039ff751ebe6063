# Sourced by the *-instructions.sh benchmarks: a server under callgrind, counted in instructions,
# which this noisy machine does not disturb.
#   callgrind_start BINARY [valgrind option ...] -- [server option ...]
# installs valgrind if missing, copies BINARY stripped of debug information (valgrind reads
# Swift's DWARF slowly, and some of it not at all) into a folder of its own, starts it under
# callgrind on $PORT (in memory, no access log, no rate limits) and waits until /health answers;
# `callgrind_zero` sets the counts to zero, `callgrind_stop` dumps them and stops the server, and
# `callgrind_total` prints the instructions counted (`callgrind_report` the annotated counts).
command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }
CALLGRIND_DIR=$(mktemp -d)
CALLGRIND_PID=""
# Leaving stops the server and removes the folder (and does what setup.sh's leaving does, if sourced).
trap 'kill "$CALLGRIND_PID" 2>/dev/null || true; rm -rf "$CALLGRIND_DIR"; ! declare -F stop_all >/dev/null || stop_all' EXIT
callgrind_start() {
  local binary=$1 tool_options=()
  shift
  while [[ $# -gt 0 && $1 != -- ]]; do tool_options+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  cp "$binary" "$CALLGRIND_DIR/server" && strip -d "$CALLGRIND_DIR/server"
  rm -f "$CALLGRIND_DIR/out" "$CALLGRIND_DIR/out".*
  valgrind --tool=callgrind --callgrind-out-file="$CALLGRIND_DIR/out" "${tool_options[@]}" "$CALLGRIND_DIR/server" --port "$PORT" \
    --in-memory --no-access-log --rate-limit off --write-rate-limit off "$@" >/dev/null 2>&1 &
  CALLGRIND_PID=$!
  for _ in $(seq 600); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && return 0; sleep 0.5; done
  echo "server did not start under callgrind"; exit 1
}
callgrind_zero() { callgrind_control -z "$CALLGRIND_PID" >/dev/null 2>&1; }
callgrind_stop() {
  callgrind_control -d "$CALLGRIND_PID" >/dev/null 2>&1
  kill "$CALLGRIND_PID"; wait "$CALLGRIND_PID" 2>/dev/null || true
  CALLGRIND_PID=""
}
callgrind_report() { callgrind_annotate "$@" "$CALLGRIND_DIR/out".1 2>/dev/null; }
callgrind_total() { callgrind_report | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; }
