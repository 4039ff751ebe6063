#!/usr/bin/env bash
# Installs what building and testing need beyond Swift, if missing (Debian): zlib's headers for
# the gzip content coding (the CZlib system-library target), libpq's for PostgreSQL as the store
# (CLibPQ), OpenSSL's libcrypto's for bearer tokens (CCrypto), ICU's for sorting text by the
# client's locale (CICU), PostgreSQL itself, which the tests start a server of their own from, and nginx and
# curl for scripts/cluster.sh. Run as root, or it uses sudo.
set -euo pipefail
missing=()
dpkg -s zlib1g-dev >/dev/null 2>&1 || missing+=(zlib1g-dev)
dpkg -s libpq-dev >/dev/null 2>&1 || missing+=(libpq-dev)
dpkg -s libssl-dev >/dev/null 2>&1 || missing+=(libssl-dev)
dpkg -s libicu-dev >/dev/null 2>&1 || missing+=(libicu-dev)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx-light)
command -v curl >/dev/null || missing+=(curl)
[[ ${#missing[@]} -eq 0 ]] && exit 0
sudo=""; [[ $(id -u) -eq 0 ]] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
