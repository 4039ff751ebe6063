#!/usr/bin/env bash
# Issue 26 §1: does --cache-bytes bound the pages sessions hold when clients take gzip? For each
# binary, plain then gzip, a fresh server on the standard data (--session-ttl 8) and
# cache-memory.py's two waves of sessions; RSS growth per wave.
#
#   benchmarks/cache-memory.sh NAME=BINARY ...     COUNT=6000 CACHE_BYTES=268435456
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/setup.sh
PORT="${PORT:-18391}"
COUNT="${COUNT:-6000}"
CACHE_BYTES="${CACHE_BYTES:-268435456}"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)  cache-bytes: $CACHE_BYTES"
for spec in "$@"; do
  name=${spec%%=*} binary=${spec#*=}
  for mode in plain gzip; do
    start_server "$binary" "$DATA_DIR" --session-ttl 8 --cache-bytes "$CACHE_BYTES"
    printf '%-8s ' "$name"
    python3 benchmarks/cache-memory.py "$PORT" "$SERVER_PID" "$COUNT" 8 "$mode"
    stop_server
  done
done
