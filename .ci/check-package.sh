#!/usr/bin/env bash
# Checks each tarball of the workspace with publint and attw, then installs them into a scratch project outside the
# repo as an app would and there: imports every entry from ESM and require(), type-checks them with nodenext and
# bundler resolution (and as CommonJS), and starts the bins. The packages and their entries are the workspace's one
# list of them (scripts/workspace-packages.ts).
#
# Usage: .ci/check-package.sh [directory holding the tarballs]   (default: scripts/pack.sh packs them)
set -euo pipefail
repo=$(pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
packs=${1:-$scratch/tarballs}
[[ -n "${1:-}" ]] || bash scripts/pack.sh "$packs" >/dev/null
packs=$(cd "$packs" && pwd)

packages=$(npx tsx scripts/workspace-packages.ts)
tarballs=("$packs"/*.tgz)
server_tgz=$(echo "$packs"/storefront-platform-server-*.tgz)
for tarball in "${tarballs[@]}"; do
  echo "$(basename "$tarball") ($(du -k "$tarball" | cut -f1) KiB)"
  listing=$(tar -tzf "$tarball")
  for file in dist/index.js dist/index.cjs LICENSE README.md CHANGELOG.md; do
    grep -qx "package/$file" <<<"$listing" || { echo "$tarball has no $file" >&2; exit 1; }
  done
  node -e '
    const pkg = JSON.parse(require("node:child_process").execFileSync("tar", ["-xzOf", process.argv[1], "package/package.json"]));
    for (const field of ["repository", "homepage", "bugs", "license"]) if (!pkg[field]) throw new Error(`${pkg.name}: no ${field}`);
    if (pkg.repository.directory === undefined) throw new Error(`${pkg.name}: repository.directory is missing`);
  ' "$tarball"
  # The CommonJS build loads its own chunks with require(): Jest runs CommonJS in a vm that refuses import()
  # (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG), so a lazy import() left in a .cjs fails there at first use.
  if tar -xzOf "$tarball" --wildcards 'package/dist/*.cjs' 2>/dev/null | grep -nE "import\(['\"]\./"; then
    echo "$tarball: a CommonJS file import()s a chunk (see server/tsup.config.ts, dynamic-import)" >&2
    exit 1
  fi
  # What `npm publish` would send, as the registry would take it (a dry run: no login, nothing sent).
  npm publish --dry-run "$tarball" 2>&1 | grep -E '^npm notice (name|version|total files|Publishing)|^\+ '
  npx publint run "$tarball" --strict
  # attw's default (strict) profile: every resolution it models, node10 and node16 from CommonJS included, since
  # each entry has an ESM and a CommonJS build with types of its own (a CommonJS app must get msw's CommonJS types).
  npx attw "$tarball"
done

app="$scratch/app"
mkdir "$app"
cd "$app"
npm init -y >/dev/null
npm pkg set type=module
msw=$(node -p "require('$repo/package.json').devDependencies.msw")
# One install, from npm's cache first (as the other scratch installs). @types/react for @storefront-platform/react's
# types (React ships none); React and TanStack Query, its peers, come with the tarballs (npm installs peers).
npm install --prefer-offline --no-audit --no-fund "${tarballs[@]}" "msw@$msw" typescript@~5.9 @types/node@20 \
  @types/react@19 >/dev/null
# Every entry point of every package, an import name a line.
node -e 'for (const pkg of JSON.parse(process.argv[1])) for (const entry of pkg.entries) console.log(entry.name)' \
  "$packages" > entries.txt
# The same as a module that takes in every entry, for the type checks below (ESM, and CommonJS as .cts).
awk '{ printf "export * as entry%d from \x27%s\x27;\n", NR, $0 }' entries.txt > entries.ts
cp entries.ts entries.cts

cat > smoke.mjs <<'JS'
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
for (const name of readFileSync('entries.txt', 'utf8').split('\n').filter(Boolean)) {
  const esm = await import(name);
  const members = Object.keys(esm).filter((member) => member !== 'default');
  if (!members.length) throw new Error(`import('${name}') exports nothing`);
  // require() gets the CommonJS build (Jest's module system cannot load ESM from node_modules), not require(esm),
  // with the same members.
  if (!require.resolve(name).endsWith('.cjs')) throw new Error(`require('${name}') does not load the CommonJS build`);
  const cjs = require(name);
  const amiss = members.filter((member) => typeof cjs[member] !== typeof esm[member]);
  if (amiss.length) throw new Error(`require('${name}') differs from import('${name}') in ${amiss.join(', ')}`);
}
if (require('@storefront-platform/server').seed !== require('@storefront-platform/server/msw').seed)
  throw new Error('seed differs between the CommonJS @storefront-platform/server and @storefront-platform/server/msw');
// One copy of each shared module: the server's entries share chunks, and both use the app's @storefront-platform/sdk.
const server = await import('@storefront-platform/server');
const msw = await import('@storefront-platform/server/msw');
if (server.seed !== msw.seed) throw new Error('seed differs between @storefront-platform/server and @storefront-platform/server/msw');
const copies = require('node:child_process')
  .execSync('npm ls @storefront-platform/sdk --all --parseable', { encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);
if (copies.length !== 1) throw new Error(`expected one @storefront-platform/sdk in node_modules, found ${copies.length}`);
console.log('ESM and require(): every entry of every package loads, with the same members; one copy of @storefront-platform/sdk');
JS
node smoke.mjs

cat > smoke.ts <<'TS'
import { createClient } from '@storefront-platform/sdk';
import { createServer } from '@storefront-platform/server';
import { createHandlers } from '@storefront-platform/server/msw';
import { pushTheme } from '@storefront-platform/themes';

const client: ReturnType<typeof createClient> = createClient({ baseUrl: 'http://localhost:4000/v1' });
const pushed: Promise<{ files: { path: string }[] }> = pushTheme({ client, dir: 'my-theme', dryRun: true });
export { client, createHandlers, createServer, pushed };
TS
for resolution in nodenext bundler; do
  module=$([ "$resolution" = bundler ] && echo esnext || echo nodenext)
  cat > tsconfig.json <<JSON
{ "compilerOptions": { "module": "$module", "moduleResolution": "$resolution", "target": "es2022", "strict": true,
  "noEmit": true, "skipLibCheck": false, "types": ["node"], "lib": ["es2023", "dom"] }, "files": ["smoke.ts", "entries.ts"] }
JSON
  npx tsc -p tsconfig.json
  echo "TypeScript ($resolution): every entry type-checks"
done
# A CommonJS file gets the .d.cts types, whose msw is msw's CommonJS types like the app's own `msw/node`: spreading
# the handlers into setupServer type-checks (with ESM types it failed: TS2345, 'resolver' is protected).
cat > smoke-cjs.cts <<'TS'
import { createClient } from '@storefront-platform/sdk';
import { createRedisTokenStore } from '@storefront-platform/sdk/redis';
import { createServer } from '@storefront-platform/server';
import { createHandlers } from '@storefront-platform/server/msw';
import { pushTheme } from '@storefront-platform/themes';
import { setupServer } from 'msw/node';

const server = setupServer(...createHandlers().handlers);
export = { createClient, createRedisTokenStore, createServer, pushTheme, server };
TS
for module in commonjs nodenext; do
  cat > tsconfig.json <<JSON
{ "compilerOptions": { "module": "$module", "target": "es2022", "strict": true, "esModuleInterop": true,
  "noEmit": true, "skipLibCheck": false, "types": ["node"], "lib": ["es2023", "dom"] }, "files": ["smoke-cjs.cts", "entries.cts"] }
JSON
  npx tsc -p tsconfig.json
  echo "TypeScript (CommonJS, module $module): every entry type-checks, msw's handlers included"
done

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

# The API explorer as the installed package serves it: prebuilt in dist/explorer (the app has no esbuild to
# bundle it with, and needs none).
case "$(tar -tzf "$server_tgz")" in *package/dist/explorer/explorer.js*) ;; *) echo "no dist/explorer in $server_tgz" >&2; exit 1 ;; esac
cat > explorer.mjs <<'JS'
import { createServer } from '@storefront-platform/server';

const server = await createServer({ port: 0, products: 3 });
try {
  for (const path of ['/explorer/', '/explorer/explorer.js', '/explorer/explorer.css']) {
    const response = await fetch(server.origin + path);
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
  }
  // The code editor, a chunk the script imports when an edit dialog opens: named by the script, served too.
  const script = await (await fetch(`${server.origin}/explorer/explorer.js`)).text();
  const chunk = script.match(/code-editor-[\w-]+\.js/)?.[0];
  if (!chunk) throw new Error('explorer.js names no code-editor chunk');
  const editor = await fetch(`${server.origin}/explorer/${chunk}`);
  if (editor.status !== 200) throw new Error(`GET /explorer/${chunk}: ${editor.status}`);
} finally {
  await server.close();
}
console.log('explorer: served from the tarball (dist/explorer), its code editor chunk too');
JS
node explorer.mjs

# The theme developer's bin as `npx storefront-themes` runs it, from the installed tarball.
./node_modules/.bin/storefront-themes --help | head -n 3
[ "$(./node_modules/.bin/storefront-themes --version)" = "$(node -p "require('$repo/themes/package.json').version")" ]
set +e
XDG_CONFIG_HOME="$scratch/config" ./node_modules/.bin/storefront-themes push --frobnicate 2>/dev/null
code=$?
set -e
[ "$code" = 2 ] || { echo "storefront-themes exited $code on a bad flag, not 2" >&2; exit 1; }
echo "bin: storefront-themes answers --help and --version from the tarball, and exits 2 on a bad flag"

# @storefront-platform/react in a fresh Vite + React 19 + TanStack Query 5 app: strict type-check and vite build.
bash "$repo/react/test/vite-app.sh" "$packs"
