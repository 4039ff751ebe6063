#!/usr/bin/env bash
# The web front end in headless Chromium: installs Debian's chromium (and fonts for the
# screenshots), Playwright and axe-core (axe-playwright-python) from PyPI in .venv-browser if
# missing (no browser download: Playwright drives the system Chromium), then runs
# scripts/browser-test.py with these arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v chromium >/dev/null || missing+=(chromium)
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || missing+=(fonts-dejavu-core)
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo=""; [[ $(id -u) -eq 0 ]] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[[ -x .venv-browser/bin/python ]] && .venv-browser/bin/python -c 'import playwright, axe_playwright_python' 2>/dev/null || {
  python3 -m venv .venv-browser &&
    .venv-browser/bin/pip install -q --disable-pip-version-check playwright==1.65.2 axe-playwright-python==0.1.8; }
exec timeout 600 .venv-browser/bin/python scripts/browser-test.py "$@"
