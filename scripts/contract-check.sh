#!/usr/bin/env bash
# Checks the running server against openapi.yaml with schemathesis (from PyPI, in .venv-st):
# every documented operation, status, header and body schema, plus 405 for undeclared methods.
# Live streams (`/…/live`) never end, so their operations are left out (their 400s and events
# are tested in LiveListTests and over a socket in ServerProcessTests).
# Excluded: positive_data_acceptance, because a cursor or a time zone can be schema-valid text
# that names nothing, and the right answer to that is a 400.
# One worker and pinned versions: with two worker threads, hypothesis now and then fails inside
# itself ("AST constructor recursion depth mismatch" while describing a lambda), about one run in
# eight here. That is CPython 3.11's gh-106905 (spurious in threaded programs), not the server,
# and must not fail CI; one worker has no such race (10 runs of 10 clean).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18499}"

[[ -x .venv-st/bin/schemathesis ]] || { python3 -m venv .venv-st && .venv-st/bin/pip install -q --disable-pip-version-check schemathesis==4.32.5 hypothesis==6.170.15; }
swift build --product server >/dev/null
.build/debug/server --port "$PORT" --no-access-log --rate-limit off --write-rate-limit off --in-memory 2>/tmp/contract-check-server.log &
SERVER_PID=$!
trap 'kill -TERM $SERVER_PID 2>/dev/null; wait $SERVER_PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
.venv-st/bin/schemathesis run openapi.yaml --url "http://127.0.0.1:$PORT" --checks all \
  --exclude-checks positive_data_acceptance --max-examples 50 --workers 1 --seed 1 --no-color \
  --exclude-path-regex '/live$'
