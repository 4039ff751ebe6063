#!/usr/bin/env bash
# Installs what building needs beyond Swift, if missing (Debian): zlib's headers for the gzip
# content coding (the CZlib system-library target). Run as root, or it uses sudo.
set -euo pipefail
missing=()
dpkg -s zlib1g-dev >/dev/null 2>&1 || missing+=(zlib1g-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
[[ ${#missing[@]} -eq 0 ]] && exit 0
sudo=""; [[ $(id -u) -eq 0 ]] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
