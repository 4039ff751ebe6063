#!/usr/bin/env bash
# Exports at 1,000,000 orders (issue 32): for each file (CSV for en and de, raw CSV, NDJSON,
# gzip) the rows/s and the server's RSS growth while it streams, the de-DE file parsed by
# Python's csv module with delimiter=';', every file's row count against the list's total,
# the English CSV cell for cell against the list's pages (2,000 of them), and an NDJSON
# export read slowly during 100 writes/s holding exactly the items of its start (benchmarks/
# export-check.py). Then, in the same run, PostgreSQL's `COPY (SELECT … ORDER BY date DESC,
# id) TO STDOUT CSV` of the same rows (loaded from the raw export), through psql.
#
#   benchmarks/export-bench.sh                 # SIZE=1000000
#   BIN=/tmp/server-before benchmarks/export-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PORT="${PORT:-18291}"
PG_PORT="${PG_PORT:-5436}"
SIZE="${SIZE:-1000000}"
SCALE_DIR="${SCALE_DIR:-/tmp/listservice-scale}"
SHARED="${SHARED:-$PWD/../shared}"
if [[ -z "${BIN:-}" ]]; then
  swift build -c release --product server >/dev/null
  BIN="$ROOT/.build/release/server"
fi
data="$SCALE_DIR/$SIZE"
[[ -s "$data/orders.json" ]] || { mkdir -p "$data"; python3 "$SHARED/data/generate.py" --orders "$SIZE" --tasks 1000 --quakes 1000 --out "$data" >/dev/null; }
WORK=$(mktemp -d /tmp/export-bench.XXXX)
chmod 755 "$WORK"
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
SERVER_PID=""
cleanup() {
  [[ -n "$SERVER_PID" ]] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  [[ -f "$WORK/pg/PG_VERSION" ]] && as_postgres "$bin/pg_ctl" -D "$WORK/pg" -m fast -w stop >/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
echo "== $SIZE orders, server: $BIN (--in-memory)"
"$BIN" --port "$PORT" --data "$data" --in-memory --no-access-log --rate-limit off --write-rate-limit off 2>"$WORK/server.log" >/dev/null &
SERVER_PID=$!
for _ in $(seq 1200); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
python3 benchmarks/export-check.py --port "$PORT" --pid "$SERVER_PID" --raw-out "$WORK/raw.csv"
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""

echo "== PostgreSQL $("$bin/postgres" --version | awk '{print $3}'): the same rows, COPY … TO STDOUT CSV"
mkdir -p "$WORK/pg"
[ "$(id -u)" = 0 ] && chown postgres "$WORK/pg"
as_postgres "$bin/initdb" -D "$WORK/pg" --auth=trust -U postgres -E UTF8 >/dev/null
as_postgres "$bin/pg_ctl" -D "$WORK/pg" -w -l "$WORK/pg/log" -o "-p $PG_PORT -k $WORK/pg -c listen_addresses=127.0.0.1" start >/dev/null
DB="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
psql -q "$DB" <<SQL
CREATE TABLE orders (id text PRIMARY KEY, title text, customer_id text, customer_name text, status text, currency text,
  total numeric, shipping_cost numeric, date timestamptz, requires_signature boolean, is_high_value boolean);
\copy orders FROM '$WORK/raw.csv' WITH (FORMAT csv, HEADER)
CREATE INDEX orders_by_date ON orders (date DESC, id);
VACUUM ANALYZE orders;
SQL
rows=$(psql -tA "$DB" -c "SELECT count(*) FROM orders")
for run in 1 2 3; do
  started=$(date +%s.%N)
  psql "$DB" -c "COPY (SELECT * FROM orders ORDER BY date DESC, id) TO STDOUT WITH (FORMAT csv, HEADER)" >"$WORK/pg.csv"
  awk -v now="$(date +%s.%N)" -v then="$started" -v rows="$rows" -v size="$(stat -c %s "$WORK/pg.csv")" \
    'BEGIN {printf "COPY run %d: %d rows in %.2f s = %.0f rows/s (%.0f MB)\n", '"$run"', rows, now - then, rows / (now - then), size / 1e6}'
done
