#!/usr/bin/env bash
# Write latency across journal compactions: 100,000 orders, 64 connections of PATCHes
# (each journaled and fsync'ed before its answer) for DURATION, so the 64 MiB journal is
# compacted a few times. Prints throughput, p50, p99 and the slowest write per binary, and
# how many compactions ran during the writes (the first snapshot, written after the load from
# JSON, is waited for before they start); then, as the anchor, the same build with no
# compaction (--compact-after 1 TiB), so that what compactions add is the difference. Give several server binaries to compare them in one run:
#   benchmarks/compaction-bench.sh .build/release/server /tmp/before/.build/release/server
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18586}"
DURATION="${DURATION:-40s}"
binaries=("$@")
[[ ${#binaries[@]} -gt 0 ]] || { swift build -c release --product server >/dev/null; binaries=(.build/release/server); }

source benchmarks/setup.sh
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
# One run of writes against `binary` with the extra server arguments given; prints its line.
measure() {
  local binary=$1 label=$2; shift 2
  STATE=$(mktemp -d)
  LOG=$(mktemp)
  "$binary" --port "$PORT" --data "$DATA_DIR" --state "$STATE" --no-access-log $(unlimited "$binary") "$@" 2>"$LOG" &
  SERVER_PID=$!
  for _ in $(seq 300); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
  # The first snapshot after a load from JSON is not a compaction of the journal: wait for it.
  for _ in $(seq 300); do grep -q "compacted file=$STATE/orders" "$LOG" && break; sleep 0.1; done
  local initial; initial=$(grep -c 'event=compacted' "$LOG" || true)
  local out; out=$(wrk -t2 -c64 -d"$DURATION" --latency --timeout 10s -s benchmarks/patch.lua "http://127.0.0.1:$PORT")
  kill -TERM $SERVER_PID; wait $SERVER_PID 2>/dev/null || true
  printf '%s%s: req/s=%s p50=%s p99=%s max=%s non2xx=%s compactions=%s ' "$binary" "$label" \
    "$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$out")" \
    "$(awk '$1=="Latency" && NF>=4 {print $4; exit}' <<<"$out")" \
    "$(awk -F': ' '/Non-2xx/ {print $2}' <<<"$out")" "$(($(grep -c 'event=compacted' "$LOG" || true) - initial))"
  # What each compaction held the writer queue for (taking the items, trimming the journal), where the build logs it.
  grep -o 'writer_queue_ms=[0-9.]*' "$LOG" | tail -n +$((initial + 1)) | tr '\n' ' ' || true
  echo
  rm -rf "$STATE" "$LOG"
}

for binary in "${binaries[@]}"; do
  measure "$binary" ""
  # The anchor: the same build and writes with no compaction at all (a builds that has
  # --compact-after), so what a compaction adds to the slowest write is the difference.
  if "$binary" --help 2>&1 | grep -q -- --compact-after; then
    measure "$binary" " (no compaction)" --compact-after 1099511627776
  fi
done
