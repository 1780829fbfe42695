#!/usr/bin/env bash
# Packs the tarball, installs it into a scratch project outside the repo and imports every entry point there,
# from plain ESM and from TypeScript compiled with moduleResolution nodenext; then publint and attw on the tarball.
set -euo pipefail
repo=$(pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

npm run build
tarball=$(npm pack --silent --pack-destination "$scratch" | tail -n 1)
tarball="$scratch/$tarball"
echo "packed $(basename "$tarball") ($(du -k "$tarball" | cut -f1) KiB)"

npx publint run "$tarball" --strict
npx attw "$tarball" --profile esm-only

cd "$scratch"
npm init -y >/dev/null
npm pkg set type=module
msw=$(node -p "require('$repo/package.json').devDependencies.msw")
npm install --no-audit --no-fund "$tarball" "msw@$msw" typescript@~5.9 @types/node@20 >/dev/null

cat > smoke.mjs <<'JS'
const sdk = await import('storefront-sdk');
const server = await import('storefront-sdk/server');
const msw = await import('storefront-sdk/msw');
for (const [name, mod, member] of [
  ['storefront-sdk', sdk, 'createClient'],
  ['storefront-sdk/server', server, 'createServer'],
  ['storefront-sdk/msw', msw, 'createHandlers'],
]) {
  if (typeof mod[member] !== 'function') throw new Error(`${name} does not export ${member}`);
}
// Shared chunks: a value exported by several entry points (e.g. `seed` from ./server and ./msw) must be one
// object, or `instanceof` and identity checks break across entries.
const entries = { 'storefront-sdk': sdk, 'storefront-sdk/server': server, 'storefront-sdk/msw': msw };
let shared = 0;
for (const [a, modA] of Object.entries(entries)) {
  for (const [b, modB] of Object.entries(entries)) {
    if (a >= b) continue;
    for (const name of Object.keys(modA).filter((key) => key in modB)) {
      if (modA[name] !== modB[name]) throw new Error(`${name} differs between ${a} and ${b}`);
      shared++;
    }
  }
}
if (shared === 0) throw new Error('no export is shared between entry points: the identity check checks nothing');
const { version } = (await import('storefront-sdk/package.json', { with: { type: 'json' } })).default;
console.log(`plain ESM: all entry points import (storefront-sdk ${version}); ${shared} shared exports keep one identity`);
JS
node smoke.mjs

cat > tsconfig.json <<'JSON'
{ "compilerOptions": { "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "strict": true,
  "noEmit": true, "skipLibCheck": false, "types": ["node"], "lib": ["es2023", "dom"] }, "files": ["smoke.ts"] }
JSON
cat > smoke.ts <<'TS'
import { createClient } from 'storefront-sdk';
import { createHandlers } from 'storefront-sdk/msw';
import { createServer } from 'storefront-sdk/server';

const client: ReturnType<typeof createClient> = createClient({ baseUrl: 'http://localhost:4000/v1' });
export { client, createHandlers, createServer };
TS
npx tsc -p tsconfig.json
echo "TypeScript (nodenext): all entry points type-check"

# The bin as `npx storefront-server` runs it, from the installed tarball (no tsx, no sources). Started through
# its .bin link rather than npx, so that the signal reaches the server itself.
./node_modules/.bin/storefront-server --help | head -n 3
./node_modules/.bin/storefront-server --port 0 --data "$scratch/data/db.json" --products 50 --quiet &
server=$!
for _ in $(seq 1 50); do [ -f "$scratch/data/db.json" ] && break; sleep 0.2; done
sleep 1
kill -TERM "$server"
wait "$server"
[ -f "$scratch/data/db.json" ] || { echo "storefront-server did not create its data file" >&2; exit 1; }
echo "bin: storefront-server starts from the tarball, seeds its data file and stops cleanly on SIGTERM"
