# Sourced by the benchmark scripts, from the repository's root: wrk installed (Debian), and
# the standard data set (100,000 orders, 20,000 tasks, 50,000 earthquakes from
# shared/data/generate.py) in $DATA_DIR. $SHARED is shared/, beside the repository.
SHARED="${SHARED:-$PWD/../shared}"
DATA_DIR="${DATA_DIR:-/tmp/listdata}"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
[[ -s "$DATA_DIR/orders.json" ]] || python3 "$SHARED/data/generate.py" --orders 100000 --tasks 20000 --quakes 50000 --out "$DATA_DIR"

# SERVER_PREFIX runs the server under a command (`taskset -c 0`: pinned to a core; exec'd, so the PID is the server's).
SERVER_PREFIX="${SERVER_PREFIX:-}"
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
  $SERVER_PREFIX "$binary" --port "$PORT" --data "$data" --in-memory --no-access-log $(unlimited "$binary") "$@" 2>"$SERVER_LOG" &
  SERVER_PID=$!
  for _ in $(seq 600); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && return 0; sleep 0.1; done
  echo "server did not start"; cat "$SERVER_LOG"; exit 1
}
stop_server() { [[ -n "$SERVER_PID" ]] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }
# `stop_all` (on exit): the server, nginx if started, and nginx's folder.
stop_all() { stop_server; stop_nginx; [[ -z "$NGINX_ROOT" ]] || rm -rf "$NGINX_ROOT"; }
trap stop_all EXIT

# The server's CPU time (user + system, in clock ticks) so far; with $SERVING set, that of the
# processes it names (nginx's master and workers, say).
cpu_ticks() { for pid in ${SERVING:-$SERVER_PID}; do awk '{print $14 + $15}' "/proc/$pid/stat"; done | awk '{s += $1} END {print s}'; }
# CPU µs per request between two `cpu_ticks` readings (BEFORE AFTER), from wrk's output on stdin.
cpu_per_request() { awk -v a="$2" -v b="$1" -v hz="$(getconf CLK_TCK)" '/requests in/ {printf "%.1f", (a - b) / hz * 1e6 / $1}'; }

# One wrk run of $DURATION: requests/s, p50, p99, and the server's CPU time per request, which
# a noisy machine disturbs far less than throughput; the line starts with $name when set.
measure() { # label conns wrk-args...
  local label=$1 conns=$2; shift 2
  local threads=$(( conns > 1 ? 2 : 1 ))
  local out before after
  before=$(cpu_ticks)
  out=$(wrk -t"$threads" -c"$conns" -d"$DURATION" --latency "$@")
  after=$(cpu_ticks)
  printf '%-8s %-22s c=%-3s req/s=%-10s p50=%-9s p99=%-9s cpu_us/req=%s\n' "${name:-}" "$label" "$conns" \
    "$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="50%" {print $2; exit}' <<<"$out")" \
    "$(awk '/Latency Distribution/ {f=1} f && $1=="99%" {print $2; exit}' <<<"$out")" \
    "$(cpu_per_request "$before" "$after" <<<"$out")"
}

# The median of the numbers on stdin, one per line.
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

# nginx beside ours (Debian's nginx-light), serving the files of $NGINX_ROOT/static:
# `nginx_root` makes that folder (and run/ for nginx's pid, logs and temporary files; removed
# on exit); `start_nginx PORT PROBE` starts nginx with $NGINX_ROOT/nginx.conf and waits until
# PROBE (a path) answers, setting NGINX_PID and NGINX_PIDS (its master and workers, for
# $SERVING); `stop_nginx` stops it.
NGINX_ROOT="" NGINX_PID="" NGINX_PIDS=""
nginx_root() {
  command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; }
  NGINX_ROOT=$(mktemp -d)
  chmod 755 "$NGINX_ROOT"  # nginx workers run as www-data
  mkdir -p "$NGINX_ROOT/static" "$NGINX_ROOT/run"
}
start_nginx() {
  (cd "$NGINX_ROOT" && exec nginx -p "$NGINX_ROOT/" -c nginx.conf -e run/error.log) &
  NGINX_PID=$!
  for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$1$2" && break; sleep 0.1; done
  local master
  master=$(cat "$NGINX_ROOT/run/nginx.pid")
  NGINX_PIDS="$master $(pgrep -P "$master" | tr '\n' ' ')"
}
stop_nginx() { [[ -n "$NGINX_PID" ]] && kill -TERM "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true; NGINX_PID=""; }

# `nginx_conf PORT WORKERS SENDFILE [DIRECTIVE ...]` prints nginx's configuration, each
# DIRECTIVE a line of its one `server` (`gzip_static on;`, a `location`).
nginx_conf() {
  local port=$1 workers=$2 sendfile=$3; shift 3
  cat <<CONF
worker_processes $workers;
daemon off;
pid run/nginx.pid;
error_log run/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile $sendfile;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_requests 1000000;
    client_body_temp_path run/body;
    proxy_temp_path run/proxy;
    fastcgi_temp_path run/fastcgi;
    uwsgi_temp_path run/uwsgi;
    scgi_temp_path run/scgi;
    types { }
    default_type application/json;
    server {
        listen 127.0.0.1:$port;
        root static;
$(printf '        %s\n' "$@")
    }
}
CONF
}
