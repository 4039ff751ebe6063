#!/usr/bin/env bash
# Replicas over PostgreSQL (issue 15), with the standard data set (100,000 orders):
#   1. HTTP writes (PATCH /orders/:id) at 1 and 64 connections: the local journal (fsync per
#      batch) beside PostgreSQL (a commit per batch, fsync on, synchronous_commit on);
#   2. replication lag: write response on replica A -> the change's event on replica B's live
#      stream, at 200 writes/s (benchmarks/replication-lag.py);
#   3. warm reads through nginx over three replicas (deploy/nginx.conf) beside one replica direct.
# Uses ports 8080-8083 (deploy/nginx.conf's) and a throwaway PostgreSQL on $PG_PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18586}"
PG_PORT="${PG_PORT:-5434}"
DURATION="${DURATION:-10s}"

source benchmarks/setup.sh
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { apt-get install -y -qq nginx-light >/dev/null; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
swift build -c release --product server >/dev/null
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

WORK=$(mktemp -d /tmp/replicas-bench.XXXX)
chmod 755 "$WORK"
mkdir -p "$WORK/pg" deploy/run
[ "$(id -u)" = 0 ] && chown postgres "$WORK/pg"
as_postgres "$bin/initdb" -D "$WORK/pg" --auth=trust -U postgres -E UTF8 >/dev/null
as_postgres "$bin/pg_ctl" -D "$WORK/pg" -w -l "$WORK/pg/log" -o "-p $PG_PORT -k $WORK/pg -c listen_addresses=127.0.0.1" start >/dev/null
as_postgres "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres listservice
DB="postgresql://postgres@127.0.0.1:$PG_PORT/listservice"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  as_postgres "$bin/pg_ctl" -D "$WORK/pg" -m fast -w stop >/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
up() { for _ in $(seq 600); do curl -fs -o /dev/null "http://127.0.0.1:$1/health" && return 0; sleep 0.1; done; echo "no server on $1"; exit 1; }

mkdir -p "$WORK/state"
.build/release/server --port "$PORT" --data "$DATA_DIR" --state "$WORK/state" --no-access-log --rate-limit off --write-rate-limit off 2>"$WORK/journal.log" &
PIDS+=($!)
.build/release/server --port 8081 --database "$DB" --data "$DATA_DIR" --no-access-log --rate-limit off --write-rate-limit off 2>"$WORK/8081.log" &
PIDS+=($!)
up 8081  # the first replica seeds the database; the others load it
for replica in 8082 8083; do
  .build/release/server --port "$replica" --database "$DB" --no-access-log --rate-limit off --write-rate-limit off 2>"$WORK/$replica.log" &
  PIDS+=($!)
done
up "$PORT"; up 8082; up 8083
"$NGINX" -p deploy/ -c nginx.conf -e run/error.log &
PIDS+=($!)
up 8080

# Warm-up, not measured: a freshly seeded database's first writes are slow (autovacuum and
# analyze of the new tables), and the journal server writes its first snapshot in the background.
wrk -t1 -c4 -d8s -s benchmarks/patch.lua "http://127.0.0.1:8081" >/dev/null
wrk -t1 -c4 -d3s -s benchmarks/patch.lua "http://127.0.0.1:$PORT" >/dev/null
sleep 5
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)  postgres: $("$bin/postgres" --version)"
summary() {
  printf '%-28s conns=%-3s req/s=%-10s p50=%-9s p99=%-9s non2xx=%s\n' "$1" "$2" "$(awk '/^Requests\/sec:/ {print $2}' <<<"$3")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$3")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$3")" \
    "$(awk -F': ' '/Non-2xx/ {print $2}' <<<"$3")"
}
echo "== HTTP writes (PATCH /orders/:id)"
for conns in 1 64; do
  threads=$(( conns > 1 ? 2 : 1 ))
  for target in "journal $PORT" "postgres 8081"; do
    set -- $target
    summary "$1" "$conns" "$(wrk -t"$threads" -c"$conns" -d"$DURATION" --latency -s benchmarks/patch.lua "http://127.0.0.1:$2")"
  done
done
position() { curl -s "http://127.0.0.1:$1/metrics" | awk '/^listservice_changelog_position/ {print $2}'; }
caught_up() {  # the write runs leave the other replicas applying a backlog: the lag runs start after it
  for _ in $(seq 600); do [ "$(position 8082)" = "$(position 8081)" ] && [ "$(position 8083)" = "$(position 8081)" ] && return 0; sleep 0.1; done
}
caught_up
echo "== replication lag, A=8081 -> B=8082's live stream, 200 writes/s for 20 s (idle replicas)"
python3 benchmarks/replication-lag.py 8081 8082 200 20
echo "== the same while B serves warm reads at full speed (wrk -c32 for 25 s)"
wrk -t2 -c32 -d25s "http://127.0.0.1:8082/orders?filter=pending&q=john" >/dev/null &
WRK=$!
sleep 2
python3 benchmarks/replication-lag.py 8081 8082 200 20
wait "$WRK"
echo "== warm reads GET /orders?filter=pending&q=john, 64 connections"
curl -s -o /dev/null "http://127.0.0.1:8080/orders?filter=pending&q=john"
for target in "nginx-over-3-replicas 8080" "one-replica-direct 8081"; do
  set -- $target
  summary "$1" 64 "$(wrk -t2 -c64 -d"$DURATION" --latency "http://127.0.0.1:$2/orders?filter=pending&q=john")"
done
for replica in 8081 8082 8083; do
  curl -s "http://127.0.0.1:$replica/metrics" | awk -v r=$replica '/^listservice_(changelog_position|replication_lag|database_reconnects|stale_batches)/ {printf "%s %s=%s ", r, $1, $2} END {print ""}'
done
