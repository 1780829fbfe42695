/**
 * What each package costs an app's node_modules: both packages are packed (prepack builds them), then each is
 * installed into a fresh project outside the repository, as an app would (`npm i @storefront-platform/sdk`;
 * `npm i -D @storefront-platform/server`, next to the SDK's tarball so that it does not come from the registry). Prints the
 * number of packages and the bytes on disk of node_modules for each, and fails when the SDK's install passes its
 * budget: an app that only needs the client must not receive the server's dependencies.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SDK_BUDGET = { packages: 6, bytes: 1024 * 1024 };
const repo = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'storefront-footprint-'));

const npm = (cwd: string, ...args: string[]) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });

/** Bytes of every regular file below `dir` (apparent size, links not followed). */
function bytesOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesOf(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** Installs `tarballs` into a new project; returns its package count (every installed package) and bytes. */
function install(name: string, tarballs: string[], dev: boolean): { packages: number; bytes: number } {
  const app = join(scratch, name);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: `footprint-${name}`, private: true }));
  npm(app, 'install', ...(dev ? ['-D'] : []), ...tarballs);
  const installed = npm(app, 'ls', '--all', '--parseable').split('\n').filter(Boolean).length - 1;
  return { packages: installed, bytes: bytesOf(join(app, 'node_modules')) };
}

try {
  const pack = (workspace: string) =>
    join(
      scratch,
      npm(repo, 'pack', '--silent', '-w', workspace, '--pack-destination', scratch).trim().split('\n').at(-1)!,
    );
  const sdkTarball = pack('@storefront-platform/sdk');
  const serverTarball = pack('@storefront-platform/server');

  const sdk = install('sdk', [sdkTarball], false);
  const server = install('server', [sdkTarball, serverTarball], true);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  console.log('node_modules of a fresh project after installing the packed tarball(s)');
  console.log(
    `  npm i @storefront-platform/sdk           ${String(sdk.packages).padStart(3)} packages  ${mb(sdk.bytes).padStart(9)}` +
      `  (budget ${SDK_BUDGET.packages} packages, ${mb(SDK_BUDGET.bytes)})`,
  );
  console.log(
    `  npm i -D @storefront-platform/server     ${String(server.packages).padStart(3)} packages  ${mb(server.bytes).padStart(9)}`,
  );
  const ok = sdk.packages <= SDK_BUDGET.packages && sdk.bytes <= SDK_BUDGET.bytes;
  console.log(ok ? 'PASS: the SDK installs within its budget' : 'FAIL: the SDK installs more than its budget');
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
