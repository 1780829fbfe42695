/**
 * Global setup of the tests that run the bins as processes (vitest's `system` and `tools` projects:
 * `storefront-server`, `storefront-themes`): builds the packages (their own `npm run build`) whose `dist/` is
 * missing or older than what it is built from, so that the processes start from the built bins with plain `node`,
 * as `npx` runs them. Starting from the sources through tsx cost about three times the CPU of each start (1.4 s
 * against 0.4 s), and the crash rounds and the themes tests start hundreds.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * In build order (the others' types are built from the SDK's built declarations), each with the file of its
 * dist/ that the tests need.
 */
const BUILT = { sdk: 'index.js', server: 'cli.js', themes: 'cli.js' };
const PACKAGES = Object.keys(BUILT) as (keyof typeof BUILT)[];
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

/** Whether `pkg`'s built file is older than an input of it or of the SDK (or missing). */
function stale(pkg: keyof typeof BUILT): boolean {
  const input = Math.max(
    ...[...new Set(['sdk', pkg])].flatMap((dir) => INPUTS.map((name) => newest(join(ROOT, dir, name)))),
  );
  return newest(join(ROOT, pkg, 'dist', BUILT[pkg])) < input;
}

export default function setup(): void {
  const toBuild = PACKAGES.filter(stale);
  if (!toBuild.length) return;
  console.error(`build-bin: building ${toBuild.join(', ')} (dist/ older than the sources) for the bins' tests`);
  execFileSync('npm', ['run', 'build', '--silent', ...toBuild.flatMap((dir) => ['-w', dir])], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
