#!/usr/bin/env bash
# Issue 26 §2: 20 uploads of 60 MB without a key, at once, against each binary (started with
# --api-keys on the standard data): peak RSS growth, answer time after the head.
#
#   benchmarks/refusal-memory.sh NAME=BINARY ...     COUNT=20 SIZE=60000000
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/setup.sh
PORT="${PORT:-18392}"
KEYS=$(mktemp)
echo "bench-key" >"$KEYS"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
for spec in "$@"; do
  name=${spec%%=*} binary=${spec#*=}
  start_server "$binary" "$DATA_DIR" --api-keys "$KEYS"
  printf '%-8s ' "$name"
  python3 benchmarks/refusal-memory.py "$PORT" "$SERVER_PID" "${COUNT:-20}" "${SIZE:-60000000}"
  stop_server
done
