/**
 * What a start of `storefront-server` on JSON data loads (issue 49, start time): none of the packages only some
 * requests or commands need, whose loading was most of a start's CPU time (`npm run bench -- start-time`): Express
 * (the shell is `node:http`'s), the PostgreSQL driver, jose (the JWT bearer grant), the SDK's client entry (ky, and
 * with it Node's fetch), node:zlib; and of the bin itself two modules (the entry and the start's). Every module the process
 * resolves is written down by a resolve hook registered at its start, on data a start before created.
 */

import { readdir, readFile, writeFile } from 'node:fs/promises';
import module from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useCli } from './helpers/cli-process.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();
const startTracked = useCli();

/** `--import` of a module that registers a resolve hook appending each resolved URL to `log`. */
function recordingResolves(log: string): string {
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}`;
  // Builtins loaded through `process.getBuiltinModule` pass no hook: Node's own list of them is written at exit.
  const register = `import { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});
process.on('exit', () => appendFileSync(${JSON.stringify(log)}, process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => 'builtin:' + m.slice(13) + '\\n').join('')));`;
  return `--import=data:text/javascript,${encodeURIComponent(register)}`;
}

it('answers its first request on existing data from two modules of the bin, without loading Express, pg, jose or the SDK client', async () => {
  const dir = await tempDir();
  const log = join(dir, 'resolved.txt');
  const args = ['--port', '0', '--data', join(dir, 'data'), '--quiet'];
  // A first start creates the data, with the seed, a chunk of its own; the start measured is the next one.
  const first = startTracked(args);
  await first.waitFor(/listening on/);
  first.child.kill('SIGINT');
  expect(await first.exited).toBe(0);
  const cli = startTracked(args, { env: { NODE_OPTIONS: recordingResolves(log) } });
  const [, origin] = await cli.waitFor(/listening on (http:\/\/\S+)/);
  // Not gzipped: a start and an answer in identity need no zlib.
  const answer = await fetch(`${origin}/.well-known/oauth-authorization-server`, {
    headers: { 'accept-encoding': 'identity' },
  });
  expect(answer.status).toBe(200);
  const resolved = (await readFile(log, 'utf8')).split('\n');
  // The hook saw the process's modules: the SDK's internal entry among them.
  expect(resolved.some((url) => /\/sdk\/dist\/internal\.js$/.test(url))).toBe(true);
  // Of the bin, two modules: the entry, which turns on the compile cache before the rest loads, and what a start
  // needs, joined into one; the rest (subcommands, the PostgreSQL store, the control API, the OpenAPI document, the
  // generated contract, the seed…) waits in chunks of its own.
  expect(resolved.filter((url) => url.includes('/server/dist/'))).toEqual([
    expect.stringMatching(/\/dist\/cli\.js$/),
    expect.stringMatching(/\/dist\/cli-[\w-]+\.js$/),
  ]);
  for (const unwanted of ['/node_modules/express/', '/node_modules/pg/', '/node_modules/jose/', '/node_modules/ky/']) {
    expect(resolved.filter((url) => url.includes(unwanted))).toEqual([]);
  }
  expect(resolved.filter((url) => /\/sdk\/dist\/index\.js$/.test(url))).toEqual([]);
  cli.child.kill('SIGINT');
  expect(await cli.exited).toBe(0);
  // node:zlib waits for the first answer gzipped.
  const builtins = (await readFile(log, 'utf8')).split('\n').filter((line) => line.startsWith('builtin:'));
  expect(builtins).toContain('builtin:http');
  expect(builtins).not.toContain('builtin:zlib');
});

/** Node ≥ 22.8 has a compile cache; Node 20's types do not declare it. */
const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

it.skipIf(!hasCompileCache)(
  'keeps its compiled code in Node’s compile cache, under the temporary directory',
  async () => {
    const dir = await tempDir();
    const cli = startTracked(['--port', '0', '--data', join(dir, 'data'), '--quiet'], { env: { TMPDIR: dir } });
    await cli.waitFor(/listening on/);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    // Written as the process exits: one entry per module compiled, the bin's among them.
    const entries = await readdir(join(dir, 'node-compile-cache'), { recursive: true });
    expect(entries.length).toBeGreaterThan(2);
  },
);

it('starts and answers where the compile cache cannot be written', async () => {
  const dir = await tempDir();
  // A file where the cache's directory would go: no directory can be made under it.
  const notADirectory = join(dir, 'tmp');
  await writeFile(notADirectory, '');
  const cli = startTracked(['--port', '0', '--data', join(dir, 'data'), '--quiet'], { env: { TMPDIR: notADirectory } });
  const [, origin] = await cli.waitFor(/listening on (http:\/\/\S+)/);
  expect((await fetch(`${origin}/.well-known/oauth-authorization-server`)).status).toBe(200);
  expect(cli.stderr()).toBe('');
  cli.child.kill('SIGINT');
  expect(await cli.exited).toBe(0);
});
