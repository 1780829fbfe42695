#!/usr/bin/env bash
# Runs the suites that use MSW on msw 3 under Node 22, as an app on msw 3 would: the example app's
# (examples/app-tests), the handlers' own (server/test/msw) and the contract suite (test/contract/contract.test.ts):
# the `mocks` project of vitest.config.ts. Not the rest of test/contract: the OpenAPI and body checks use no msw
# (CI's Node 22 step runs them), and the PostgreSQL contract compares the same MSW handlers with Express on
# PostgreSQL, whose msw 3 half contract.test.ts runs.
#
# msw 3 needs Node >= 22.12, the repository's own dependencies are installed for Node 20 with msw 2. So:
#   1. msw@3 alone is installed in a scratch directory outside the repository (nothing in the repo changes);
#   2. the repository's own vitest runs under Node 22 (npx -p node@22) with a config, written to the scratch
#      directory, that resolves every `msw` import (the tests' and the handlers' in server/src/msw) to that msw 3,
#      and `@storefront-platform/sdk`, `@storefront-platform/server/msw`, `@storefront-platform/server` to the sources, as the repository's
#      vitest config does.
# One copy of msw for the tests and the handlers, as in an app: handlers made by one msw and served by another
# would test nothing about msw 3.
#
# Usage: examples/app-tests/run-msw3.sh [vitest filters and options], e.g. `run-msw3.sh examples/app-tests`
# Env:   MSW3_VERSION (default ^3), NODE22 (default 22; the npm package `node@$NODE22` provides the binary, or
#        CI_NODE_$NODE22 names its folder: scripts/lib/node-bin.sh),
#        MSW3_SCRATCH (default: a fresh temporary directory, removed on exit).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
msw_version="${MSW3_VERSION:-^3}"
node_version="${NODE22:-22}"

# shellcheck source=../../scripts/lib/scratch.sh
source "$repo/scripts/lib/scratch.sh"
# shellcheck source=../../scripts/lib/node-bin.sh
source "$repo/scripts/lib/node-bin.sh"
scratch_dir "$repo" "${MSW3_SCRATCH:-}" msw3

run_node22() { with_node "$node_version" node "$@"; }

echo "run-msw3.sh: Node $(run_node22 --version), scratch $scratch"

cat > "$scratch/package.json" <<'JSON'
{ "name": "storefront-msw3-check", "private": true, "type": "module" }
JSON
(cd "$scratch" && npm install --prefer-offline --no-audit --no-fund --no-package-lock --loglevel=error "msw@$msw_version")

cat > "$scratch/vitest.msw3.config.mjs" <<'JS'
import { createRequire } from 'node:module';

// Resolved from the scratch directory: msw 3, not the repository's msw 2.
const require = createRequire(import.meta.url);
const repo = process.env.STOREFRONT_REPO;

export default {
  root: repo,
  resolve: {
    alias: [
      { find: /^msw$/, replacement: require.resolve('msw') },
      { find: /^msw\/node$/, replacement: require.resolve('msw/node') },
      { find: /^@storefront-platform\/server\/msw$/, replacement: repo + '/server/src/msw/index.ts' },
      { find: /^@storefront-platform\/server$/, replacement: repo + '/server/src/index.ts' },
      { find: /^@storefront-platform\/sdk\/internal$/, replacement: repo + '/sdk/src/internal.ts' },
      { find: /^@storefront-platform\/sdk$/, replacement: repo + '/sdk/src/index.ts' },
    ],
  },
  test: {
    include: ['examples/app-tests/**/*.test.ts', 'server/test/msw/**/*.test.ts', 'test/contract/contract.test.ts'],
    testTimeout: 20000,
  },
};
JS

echo "run-msw3.sh: msw $(cd "$scratch" && node -p "require('msw/package.json').version")"
cd "$repo"
STOREFRONT_REPO="$repo" run_node22 "$repo/node_modules/vitest/vitest.mjs" run --config "$scratch/vitest.msw3.config.mjs" "$@"
