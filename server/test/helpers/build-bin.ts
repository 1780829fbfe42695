/**
 * Global setup of the tests that run `storefront-server` as a process (vitest's `system` project): builds the SDK
 * and the server (their own `npm run build`) when their `dist/` is missing or older than what it is built from, so
 * that the processes start from the built bin with plain `node`, as `npx storefront-server` runs it. Starting from
 * the sources through tsx cost about three times the CPU of each start, and the crash rounds start dozens.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** In build order: the server's types are built from the SDK's built declarations. */
const PACKAGES = ['sdk', 'server'];
/** What a package's build reads, besides the SDK's: its sources and build configuration. */
const INPUTS = ['src', 'package.json', 'tsup.config.ts'];

/** The newest modification time under `path` (a file or a folder), 0 if it does not exist. */
function newest(path: string): number {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Whether `pkg`'s dist/index.js is older than an input of it or of the packages before it (or missing). */
function stale(pkg: string): boolean {
  const upTo = PACKAGES.slice(0, PACKAGES.indexOf(pkg) + 1);
  const input = Math.max(...upTo.flatMap((dir) => INPUTS.map((name) => newest(join(ROOT, dir, name)))));
  return newest(join(ROOT, pkg, 'dist', 'index.js')) < input;
}

export default function setup(): void {
  const toBuild = PACKAGES.filter(stale);
  if (!toBuild.length) return;
  console.log(`build-bin: building ${toBuild.join(' and ')} (dist/ older than the sources) for the bin's tests`);
  execFileSync('npm', ['run', 'build', '--silent', ...toBuild.flatMap((dir) => ['-w', dir])], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
