#!/usr/bin/env bash
# Runs the SDK's transport tests (sdk/test/transport.test.ts, sdk/test/ky.test.ts) with a user's ky 2 instance as
# the `ky` option, under Node 22 and 24, as an app on ky 2 has it: the SDK keeps its own ky 1, the tests' clients
# go through an instance of the app's ky 2 (sdk/test/helpers/user-ky.ts, told by STOREFRONT_TEST_KY).
#
# ky 2 needs Node >= 22, and the repository's dependencies must install on Node 20 without engine warnings. So:
#   1. ky@2 alone is installed in a scratch directory outside the repository (nothing in the repo changes);
#   2. the repository's tsc checks a file of that directory which passes ky 2 instances to `createClient` of the
#      SDK's sources (its `ky` resolved from the scratch directory, the SDK's from the repository);
#   3. the repository's own vitest and config run the two files under each Node (the npm package `node@N`).
#
# Usage: sdk/test/run-ky2.sh [vitest options]
# Env:   KY2_VERSION (default ^2), KY2_NODES (default "22 24"; CI_NODE_<N> may name each one's folder),
#        KY2_SCRATCH (default: a fresh temporary directory, removed on exit).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ky_version="${KY2_VERSION:-^2}"
nodes="${KY2_NODES:-22 24}"

# shellcheck source=../../scripts/lib/scratch.sh
source "$repo/scripts/lib/scratch.sh"
# shellcheck source=../../scripts/lib/node-bin.sh
source "$repo/scripts/lib/node-bin.sh"
scratch_dir "$repo" "${KY2_SCRATCH:-}" ky2

cat > "$scratch/package.json" <<'JSON'
{ "name": "storefront-ky2-check", "private": true, "type": "module" }
JSON
# Installed under Node 20 here, whose engine check ky 2 fails: it runs under Node 22 and 24 below.
(cd "$scratch" && npm install --prefer-offline --no-audit --no-fund --no-package-lock --loglevel=error --engine-strict=false "ky@$ky_version")
ky_dir="$scratch/node_modules/ky"
installed="$(node -p "require('$ky_dir/package.json').version")"
[[ "$installed" == 2.* ]] || { echo "run-ky2.sh: ky $installed installed, not a ky 2" >&2; exit 1; }
echo "run-ky2.sh: ky $installed, scratch $scratch"

cat > "$scratch/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2023", "DOM", "DOM.Iterable"],
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "verbatimModuleSyntax": true,
    "skipLibCheck": true,
    "noEmit": true,
    "types": []
  },
  "files": ["ky-option.ts"]
}
JSON
cat > "$scratch/ky-option.ts" <<TS
import ky from 'ky';
import { createClient, type KyInstance } from '$repo/sdk/src/index.js';

const baseUrl = 'https://api.example.com/v1';
const app = ky.create({
  prefix: 'https://api.example.com',
  timeout: 5000,
  hooks: { beforeRequest: [({ request }) => request.headers.set('x-app', 'shop-sync')] },
});
createClient({ baseUrl, ky: app });
createClient({ baseUrl, ky: app.extend({ retry: 1 }), retry: { limit: 3, shouldRetry: ({ retryCount }) => retryCount < 2 } });
createClient({ baseUrl, ky });
export const declared: KyInstance = app;
// @ts-expect-error Not an instance: the option's type is not so loose that it takes anything.
createClient({ baseUrl, ky: { extend: () => app } });
TS
echo "run-ky2.sh: a ky 2 instance as the ky option, type-checked"
node "$repo/node_modules/typescript/bin/tsc" -p "$scratch/tsconfig.json"

cd "$repo"
for node in $nodes; do
  echo "run-ky2.sh: transport tests on Node $(with_node "$node" node --version) with ky $installed"
  STOREFRONT_TEST_KY="$ky_dir" with_node "$node" node "$repo/node_modules/vitest/vitest.mjs" run --project node \
    sdk/test/transport.test.ts sdk/test/ky.test.ts "$@"
done
