# Sourced by the benchmark scripts, from the repository's root: wrk installed (Debian), and
# the standard data set (100,000 orders, 20,000 tasks, 50,000 earthquakes from
# shared/data/generate.py) in $DATA_DIR. $SHARED is shared/, beside the repository.
SHARED="${SHARED:-$PWD/../shared}"
DATA_DIR="${DATA_DIR:-/tmp/listdata}"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
[[ -s "$DATA_DIR/orders.json" ]] || python3 "$SHARED/data/generate.py" --orders 100000 --tasks 20000 --quakes 50000 --out "$DATA_DIR"
