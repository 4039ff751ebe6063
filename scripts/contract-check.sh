#!/usr/bin/env bash
# Checks the running server against openapi.yaml with schemathesis (from PyPI, in .venv-st):
# every documented operation, status, header and body schema, plus 405 for undeclared methods.
# Excluded: positive_data_acceptance, because a cursor or a time zone can be schema-valid text
# that names nothing, and the right answer to that is a 400.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18499}"

[[ -x .venv-st/bin/schemathesis ]] || { python3 -m venv .venv-st && .venv-st/bin/pip install -q --disable-pip-version-check schemathesis; }
swift build --product server >/dev/null
.build/debug/server --port "$PORT" --no-access-log --in-memory 2>/tmp/contract-check-server.log &
SERVER_PID=$!
trap 'kill -TERM $SERVER_PID 2>/dev/null; wait $SERVER_PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
.venv-st/bin/schemathesis run openapi.yaml --url "http://127.0.0.1:$PORT" --checks all \
  --exclude-checks positive_data_acceptance --max-examples 50 --workers 2 --seed 1 --no-color
