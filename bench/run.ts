/**
 * `npm run bench`: runs every `bench/*.bench.ts` in its own process, one after the other, so that each
 * prints its own figures (ratios against a baseline measured in the same run) without disturbing the others.
 * `npm run bench -- sdk` runs only the files whose name contains `sdk`. Most take a minute or less; the soak
 * (`soak.bench.ts`) runs a minute unless `SOAK_MINUTES` asks for longer (30 for the soak of issue 47).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildStale } from '../scripts/build-stale.js';

const dir = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts') && name.includes(filter))
  .sort();

// Benchmarks that start the server as a process start its built bin, as the tests do: built when stale.
if (files.length) buildStale(['sdk', 'server', 'themes']);

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${file}`], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
if (files.length === 0) console.log(`no benchmark matches "${filter}"`);
process.exitCode = failed ? 1 : 0;
