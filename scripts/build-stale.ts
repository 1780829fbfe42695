/**
 * Builds the packages of the workspace (each one's own `npm run build`) whose `dist/` is missing or older than what
 * it is built from, so that one build serves everything after it: the tests that start the bins as processes
 * (their global setup, server/test/helpers/build-bin.ts), the benchmarks, and the packaging check, which packs
 * what is built here rather than building it again in `prepack` (CI built every package twice before).
 *
 *   npx tsx scripts/build-stale.ts [DIR...]   build the stale ones of DIR... (default: every package)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspacePackages } from './workspace-packages.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** What a package's build reads, besides the SDK's (every other package is built on its declarations). */
const INPUTS = ['src', 'package.json', 'tsup.config.ts'];
/** What every build writes (a bin as well, where the package has one): the oldest of them dates the build. */
const OUTPUTS = ['index.js', 'index.cjs', 'index.d.ts'];

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

/** Whether `dir`'s build is missing a file or older than an input of it or of the SDK. */
function stale(dir: string): boolean {
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
    bin?: Record<string, string>;
  };
  const outputs = [...OUTPUTS.map((name) => `dist/${name}`), ...Object.values(manifest.bin ?? {})];
  const built = Math.min(...outputs.map((path) => newest(join(ROOT, dir, path))));
  const input = Math.max(
    ...[...new Set(['sdk', dir])].flatMap((pkg) => INPUTS.map((name) => newest(join(ROOT, pkg, name)))),
  );
  return built < input;
}

/** Builds the stale ones of `dirs` (package folders: `sdk`, `server`), in the workspace's order; returns them. */
export function buildStale(dirs: readonly string[] = workspacePackages().map((pkg) => pkg.dir)): string[] {
  const toBuild = workspacePackages()
    .map((pkg) => pkg.dir)
    .filter((dir) => dirs.includes(dir) && stale(dir));
  if (toBuild.length) {
    console.error(`build-stale: building ${toBuild.join(', ')} (dist/ missing or older than the sources)`);
    execFileSync('npm', ['run', 'build', '--silent', ...toBuild.flatMap((dir) => ['-w', dir])], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return toBuild;
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  buildStale(process.argv.length > 2 ? process.argv.slice(2) : undefined);
