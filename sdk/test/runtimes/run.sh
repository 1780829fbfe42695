#!/usr/bin/env bash
# Runs the SDK's scenario (sdk/test/runtimes/scenario.ts) on Bun, Deno, workerd and Chromium, on the packed SDK as an
# app installs it, against a reference server of the repository on 127.0.0.1, port 0 (sdk/test/runtimes/run.ts).
#
# The runtimes are no dependencies of the repository: each comes from the npm package that ships its binary
# (bun, deno, workerd; their platform packages hold the binaries, nothing is downloaded from elsewhere), installed
# in a directory of its own outside the repository and kept there between runs (about 350 MB; reinstalled when the
# versions below change). Chromium is Debian's (/usr/bin/chromium), driven by the repository's playwright-core.
#
# Usage: sdk/test/runtimes/run.sh [directory holding the SDK's .tgz]   (default: scripts/pack.sh packs it)
# Env:   RUNTIMES: which to run (default "bun deno workerd chromium");
#        RUNTIMES_CACHE: where the runtimes are installed (default ~/.cache/storefront-platform/runtimes);
#        BUN_VERSION, DENO_VERSION, WORKERD_VERSION: npm versions of the runtimes (defaults below).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
# shellcheck source=../../../scripts/lib/scratch.sh
source "$repo/scripts/lib/scratch.sh"
runtimes="${RUNTIMES:-bun deno workerd chromium}"
declare -A versions=(
  [bun]="${BUN_VERSION:-1.4.5}"
  [deno]="${DENO_VERSION:-2.9.6}"
  [workerd]="${WORKERD_VERSION:-1.20261117.1}"
)

# The runtimes' directory first: the app's, a fresh one, is then `scratch`, which its trap removes on exit.
scratch_dir "$repo" "${RUNTIMES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/storefront-platform/runtimes}" runtimes-cache
cache="$scratch"

# The installed SDK, in a fresh app directory.
scratch_dir "$repo" "" runtimes
app="$scratch"
tarballs="${1:-}"
if [[ -z "$tarballs" ]]; then
  tarballs="$app/tarballs"
  bash "$repo/scripts/pack.sh" "$tarballs" >/dev/null
fi
sdk_tgz=$(echo "$(cd "$tarballs" && pwd)"/storefront-platform-sdk-*.tgz)
[[ -f "$sdk_tgz" ]] || { echo "run.sh: no storefront-platform-sdk-*.tgz in $tarballs" >&2; exit 2; }
echo '{ "name": "storefront-runtimes-check", "private": true, "type": "module" }' > "$app/package.json"
(cd "$app" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "$sdk_tgz" >/dev/null)
cp "$repo/sdk/test/runtimes/scenario.ts" "$app/"

# Each runtime in its own directory of the cache, timed; skipped when that version is there.
bins=()
for runtime in $runtimes; do
  [[ "$runtime" == chromium ]] && continue
  version="${versions[$runtime]:-}"
  [[ -n "$version" ]] || { echo "run.sh: unknown runtime $runtime (bun, deno, workerd, chromium)" >&2; exit 2; }
  dir="$cache/$runtime"
  if [[ "$(cat "$dir/installed" 2>/dev/null)" != "$version" ]]; then
    rm -rf "$dir" && mkdir -p "$dir"
    echo '{ "name": "storefront-runtime", "private": true }' > "$dir/package.json"
    start=$(date +%s%3N)
    (cd "$dir" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "$runtime@$version" >/dev/null)
    echo "$version" > "$dir/installed"
    ms=$(($(date +%s%3N) - start))
    echo "run.sh: installed $runtime $version in $((ms / 1000)).$((ms % 1000 / 100)) s ($(du -sh "$dir" | cut -f1))"
  else
    echo "run.sh: $runtime $version, cached in $dir"
  fi
  bins+=("$runtime=$dir/node_modules/.bin/$runtime")
done

cd "$repo"
npx tsx sdk/test/runtimes/run.ts --app "$app" --runtimes "$runtimes" "${bins[@]/#/--bin=}"
