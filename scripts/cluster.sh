#!/usr/bin/env bash
# Starts ListService as a cluster on this machine: a throwaway PostgreSQL, three replicas
# (127.0.0.1:8081-8083) and nginx in front (http://127.0.0.1:8080, deploy/nginx.conf).
# Ctrl-C stops everything. Options are passed to every replica (e.g. --data DIR).
#   scripts/cluster.sh [server options]
# As a real deployment runs: callers are identified by bearer tokens verified with
# $CLUSTER_DIR/jwks.json (an HS256 key made on the first run; scripts/mint-token.py signs a
# token with it), and nginx is the one trusted proxy, whose X-Forwarded-For names each visitor
# for the rate limits and the access log. Demo sign-in is off: through a proxy it would let any
# visitor sign in as anyone.
# Needs postgresql and nginx (scripts/setup.sh installs them) and a release build
# (swift build -c release). The database lives in $CLUSTER_DIR (default /tmp/listservice-cluster)
# and is kept between runs; delete it for a fresh one.
set -euo pipefail
cd "$(dirname "$0")/.."
server=.build/release/server
[ -x "$server" ] || { echo "cluster: build first: swift build -c release" >&2; exit 1; }
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "cluster: nginx is missing (scripts/setup.sh)" >&2; exit 1; }
nginx_binary=$(command -v nginx || echo /usr/sbin/nginx)
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "cluster: PostgreSQL is missing (scripts/setup.sh)" >&2; exit 1; }

dir=${CLUSTER_DIR:-/tmp/listservice-cluster}
data=$dir/postgres
port=${CLUSTER_PG_PORT:-5433}
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

mkdir -p "$dir" deploy/run
if [ ! -f "$data/PG_VERSION" ]; then
    mkdir -p "$data"
    chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$data"
    as_postgres "$bin/initdb" -D "$data" --auth=trust -U postgres -E UTF8 >/dev/null
fi
as_postgres "$bin/pg_ctl" -D "$data" -w -l "$data/log" \
    -o "-p $port -k $data -c listen_addresses=127.0.0.1" start >/dev/null
as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres listservice 2>/dev/null || true
database="postgresql://postgres@127.0.0.1:$port/listservice"
jwks=$dir/jwks.json
[ -f "$jwks" ] || python3 scripts/mint-token.py --new-jwks "$jwks"

pids=()
stop() {
    trap - INT TERM EXIT
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    as_postgres "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null || true
}
trap stop INT TERM EXIT

for replica in 8081 8082 8083; do
    "$server" --database "$database" --port "$replica" --jwt-keys "$jwks" --trusted-proxies 127.0.0.1 --no-access-log \
        "$@" 2> >(sed "s/^/[$replica] /" >&2) &
    pids+=($!)
done
for replica in 8081 8082 8083; do
    for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:$replica/health" >/dev/null && break; sleep 0.1; done
done
"$nginx_binary" -p deploy/ -c nginx.conf -e run/error.log &
pids+=($!)
echo "cluster: http://127.0.0.1:8080 (nginx) -> replicas 8081 8082 8083 -> $database" >&2
echo "cluster: a token: scripts/mint-token.py $jwks --sub staff-1 --role staff" >&2
wait -n "${pids[@]}"
