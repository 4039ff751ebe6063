#!/usr/bin/env bash
# Exports of two server builds, alternated, on the 1,000,000 orders export-bench.sh generates:
# the seconds curl takes to read each file, and the server's CPU for them.
#   benchmarks/export-pair.sh /tmp/server-before /tmp/server-after
set -euo pipefail
PORT=18310
for round in 1 2; do
  for bin in "$@"; do
    "$bin" --port $PORT --data "${SCALE_DIR:-/tmp/listservice-scale}/1000000" --in-memory --no-access-log --rate-limit off --write-rate-limit off 2>/dev/null >/dev/null &
    pid=$!
    for i in $(seq 600); do curl -fs -o /dev/null localhost:$PORT/health && break; sleep 0.1; done
    line="round $round $(basename $bin):"
    for q in "" "locale=de-DE" "raw=1" "format=ndjson"; do
      t=$( { /usr/bin/time -f "%e" curl -s "localhost:$PORT/orders/export?$q" -o /dev/null; } 2>&1 )
      line="$line ${q:-csv}=${t}s"
    done
    t=$( { /usr/bin/time -f "%e" curl -s -H 'Accept-Encoding: gzip' "localhost:$PORT/orders/export" -o /dev/null; } 2>&1 )
    echo "$line gzip=${t}s  (server CPU $(ps -o times= -p $pid)s total)"
    kill -TERM $pid; wait $pid 2>/dev/null || true
  done
done
