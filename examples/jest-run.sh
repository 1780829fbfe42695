#!/usr/bin/env bash
# Runs the Jest example apps as an app runs them: each one copied to a scratch directory outside the repository,
# with the packed tarballs, msw, Jest 30 and ts-jest installed there (the repository's own node_modules would hide
# what a fresh install gets), then type-checked and tested.
#   examples/jest-cjs: CommonJS, ts-jest's default preset, nothing else; tsc with `module: commonjs` (node10
#                      resolution) and nodenext.
#   examples/jest-cjs-msw-latest: the same app and suite on the newest msw 2.x, with the Jest settings that msw
#                      2.11.3+ needs in CommonJS (its jest.config.js, the one docs/msw.md gives).
#   examples/jest-esm: ESM, ts-jest's ESM recipe (`--experimental-vm-modules`); tsc with nodenext and bundler;
#                      then again on msw 3 (ES modules only, Node 22.12+) under Node 22.
#
# Usage: examples/jest-run.sh [directory holding the tarballs]   (default: scripts/pack.sh packs them)
# Env:   JEST_CJS_MSW: msw of the CommonJS app (default 2.11.2; see below);
#        JEST_CJS_LATEST_MSW: msw of examples/jest-cjs-msw-latest (default 2: the newest 2.x of the registry);
#        JEST_ESM_MSW3: msw of the ESM app's second run (default 3).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../scripts/lib/scratch.sh
source "$repo/scripts/lib/scratch.sh"
# shellcheck source=../scripts/lib/node-bin.sh
source "$repo/scripts/lib/node-bin.sh"
scratch_dir "$repo" "" jest

tarballs="${1:-}"
if [[ -z "$tarballs" ]]; then
  tarballs="$scratch/tarballs"
  bash "$repo/scripts/pack.sh" "$tarballs" >/dev/null
fi
tarballs="$(cd "$tarballs" && pwd)"

dev() { node -p "require('$repo/package.json').devDependencies['$1']"; }
tools=("jest@$(dev jest)" "ts-jest@$(dev ts-jest)" "typescript@$(dev typescript)" "@types/node@$(dev @types/node)")

# msw 2.11.3 and later require ES-module-only packages (until-async, rettime, @open-draft/deferred-promise) from
# their CommonJS build, which Jest's CommonJS mode cannot load without transforming them (mswjs/msw#2698). The
# CommonJS app shows that our packages need no Jest setting, on the newest msw that needs none either; the
# msw-latest app, that the documented settings carry the same suite on what `npm i -D msw@2` installs today.
cjs_msw="${JEST_CJS_MSW:-2.11.2}"
cjs_latest_msw="${JEST_CJS_LATEST_MSW:-2}"
esm_msw="$(dev msw)"
esm_msw3="${JEST_ESM_MSW3:-3}"

# install_app NAME FETCH PACKAGES...: the example copied to $scratch/NAME with PACKAGES and the tarballs installed,
# FETCH being npm's --prefer-offline (from npm's cache first, as the other scratch installs) or --prefer-online
# (the registry's newest, for an app that must get what `npm i` gets today). An example without src/ is another
# setup of examples/jest-cjs: its sources and tsconfig.json come from there.
install_app() {
  local name=$1 fetch=$2 app="$repo/examples/$1" sources="$repo/examples/$1"
  shift 2
  [[ -d "$sources/src" ]] || sources="$repo/examples/jest-cjs"
  mkdir "$scratch/$name"
  cp -r "$app/package.json" "$app/jest.config.js" "$sources/tsconfig.json" "$sources/src" "$scratch/$name/"
  (cd "$scratch/$name" && npm install "$fetch" --no-audit --no-fund --no-package-lock --loglevel=error \
    "$tarballs"/storefront-platform-sdk-*.tgz "$tarballs"/storefront-platform-server-*.tgz "${tools[@]}" "$@" >/dev/null)
  echo "jest-run.sh: $name with msw $(cd "$scratch/$name" && node -p "require('msw/package.json').version")"
}

# The three installs at once: they wait on the network and the disk more than on a core.
install_app jest-cjs --prefer-offline "msw@$cjs_msw" "@types/jest@$(dev @types/jest)" &
cjs=$!
install_app jest-cjs-msw-latest --prefer-online "msw@$cjs_latest_msw" "@types/jest@$(dev @types/jest)" &
cjs_latest=$!
install_app jest-esm --prefer-offline "msw@$esm_msw" &
esm=$!
wait "$cjs"
wait "$cjs_latest"
wait "$esm"

(
  cd "$scratch/jest-cjs"
  npx tsc -p tsconfig.json
  npx tsc -p tsconfig.json --module nodenext --moduleResolution nodenext
  echo "jest-run.sh: jest-cjs type-checks with module commonjs (node10 resolution) and nodenext (as CommonJS)"
  npx jest --ci
)

(
  cd "$scratch/jest-cjs-msw-latest"
  # Else the settings would be tested on an msw that does not need them.
  [[ -d node_modules/rettime ]] || { echo "jest-run.sh: msw $cjs_latest_msw no longer requires rettime: update jest-cjs-msw-latest" >&2; exit 1; }
  npx tsc -p tsconfig.json
  npx jest --ci
)

(
  cd "$scratch/jest-esm"
  npx tsc -p tsconfig.json
  npx tsc -p tsconfig.json --module esnext --moduleResolution bundler
  echo "jest-run.sh: jest-esm type-checks with nodenext and bundler"
  npm test -- --ci
)

# msw 3 has no CommonJS build and needs Node 22.12+: the ESM app is its setup, run again on it under Node 22.
(
  cd "$scratch/jest-esm"
  npm install --no-audit --no-fund --no-package-lock --loglevel=error --engine-strict=false "msw@$esm_msw3" >/dev/null
  echo "jest-run.sh: jest-esm with msw $(node -p "require('msw/package.json').version") under Node 22"
  npx tsc -p tsconfig.json
  with_node 22 node --experimental-vm-modules node_modules/jest/bin/jest.js --ci
)
