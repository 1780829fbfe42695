#!/usr/bin/env bash
# Packs every package of the workspace into DIR, as `npm publish` would send it, and prints each tarball's path.
# The build is scripts/build-stale.ts's (what is not built yet or older than its sources), not prepack's: `npm
# pack --ignore-scripts`, so that a run that built the packages for its tests (CI's first pass) does not build
# them a second time.
#
# Usage: scripts/pack.sh DIR
set -euo pipefail
dir=$(mkdir -p "${1:?usage: scripts/pack.sh DIR}" && cd "$1" && pwd)
cd "$(dirname "${BASH_SOURCE[0]}")/.."
npx tsx scripts/build-stale.ts
node -p "require('./package.json').workspaces.join('\\n')" | while read -r pkg; do
  echo "$dir/$(npm pack --silent --ignore-scripts -w "$pkg" --pack-destination "$dir" | tail -n 1)"
done
