#!/usr/bin/env bash
# What the tests need besides npm packages, from Debian: a real Redis server (the token and cache store tests)
# and Chromium (the browser tests). Installed when missing and we may (root); otherwise says how, and the tests
# that need them skip with a loud message (under CI=true they fail instead).
set -euo pipefail
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v chromium >/dev/null || missing+=(chromium)
((${#missing[@]})) || exit 0
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
  echo "system-deps: missing ${missing[*]}; install them (Debian: sudo apt-get install ${missing[*]})" >&2
  exit 0
fi
echo "system-deps: apt-get install ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
