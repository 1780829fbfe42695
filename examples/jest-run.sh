#!/usr/bin/env bash
# Runs the Jest example apps as an app runs them: each one copied to a scratch directory outside the repository,
# with the packed tarballs, msw, Jest 30 and ts-jest installed there (the repository's own node_modules would hide
# what a fresh install gets), then type-checked and tested.
#   examples/jest-cjs: CommonJS, ts-jest's default preset, nothing else; tsc with `module: commonjs` (node10
#                      resolution) and nodenext.
#   examples/jest-esm: ESM, ts-jest's ESM recipe (`--experimental-vm-modules`); tsc with nodenext and bundler.
#
# Usage: examples/jest-run.sh [directory holding the three .tgz]   (default: packs them, which builds them)
# Env:   JEST_CJS_MSW: msw of the CommonJS app (default 2.11.2; see below).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../scripts/lib/scratch.sh
source "$repo/scripts/lib/scratch.sh"
scratch_dir "$repo" "" jest

tarballs="${1:-}"
if [[ -z "$tarballs" ]]; then
  tarballs="$scratch/tarballs"
  mkdir "$tarballs"
  (cd "$repo" && node -e 'for (const pkg of JSON.parse(process.argv[1])) console.log(pkg.dir)' \
    "$(npx tsx scripts/workspace-packages.ts)" | while read -r dir; do
    npm pack --silent -w "$dir" --pack-destination "$tarballs" >/dev/null
  done)
fi
tarballs="$(cd "$tarballs" && pwd)"

dev() { node -p "require('$repo/package.json').devDependencies['$1']"; }
tools=("jest@$(dev jest)" "ts-jest@$(dev ts-jest)" "typescript@$(dev typescript)" "@types/node@$(dev @types/node)")

# msw 2.11.3 and later require ES-module-only packages (until-async, rettime) from their CommonJS build, which
# Jest's CommonJS mode cannot load without transforming them (mswjs/msw#2698): that is msw's to fix, and the
# CommonJS app shows that our packages need no Jest setting, on the newest msw that needs none either.
cjs_msw="${JEST_CJS_MSW:-2.11.2}"
esm_msw="$(dev msw)"

# install_app NAME PACKAGES...: the example copied to $scratch/NAME with PACKAGES and the tarballs installed.
install_app() {
  local name=$1
  shift
  mkdir "$scratch/$name"
  cp -r "$repo/examples/$name/package.json" "$repo/examples/$name/tsconfig.json" "$repo/examples/$name/jest.config.js" \
    "$repo/examples/$name/src" "$scratch/$name/"
  (cd "$scratch/$name" && npm install --no-audit --no-fund --no-package-lock --loglevel=error \
    "$tarballs"/storefront-platform-sdk-*.tgz "$tarballs"/storefront-platform-server-*.tgz "${tools[@]}" "$@" >/dev/null)
  echo "jest-run.sh: $name with msw $(cd "$scratch/$name" && node -p "require('msw/package.json').version")"
}

install_app jest-cjs "msw@$cjs_msw" "@types/jest@$(dev @types/jest)"
(
  cd "$scratch/jest-cjs"
  npx tsc -p tsconfig.json
  npx tsc -p tsconfig.json --module nodenext --moduleResolution nodenext
  echo "jest-run.sh: jest-cjs type-checks with module commonjs (node10 resolution) and nodenext (as CommonJS)"
  npx jest --ci
)

install_app jest-esm "msw@$esm_msw"
(
  cd "$scratch/jest-esm"
  npx tsc -p tsconfig.json
  npx tsc -p tsconfig.json --module esnext --moduleResolution bundler
  echo "jest-run.sh: jest-esm type-checks with nodenext and bundler"
  npm test -- --ci
)
