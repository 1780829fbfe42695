#!/usr/bin/env bash
# What the tests need besides npm packages, from Debian: a real Redis server (the token and cache store tests),
# PostgreSQL (the PostgreSQL store's tests: a server answering on 127.0.0.1, or the binaries, from which the tests
# start a private cluster; test/support/postgres-server.ts), PgBouncer (the PostgreSQL store's tests through a
# connection pooler; test/support/pgbouncer-server.ts) and Chromium (the browser tests). Installed when missing
# and we may (root); otherwise says how, and the tests that need them skip with a loud message (under CI=true they
# fail instead).
set -euo pipefail
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
{ pg_isready -q -h 127.0.0.1 2>/dev/null || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; } ||
  missing+=(postgresql)
# Debian installs it in /usr/sbin, outside a user's PATH.
command -v pgbouncer >/dev/null || [[ -x /usr/sbin/pgbouncer ]] || missing+=(pgbouncer)
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
