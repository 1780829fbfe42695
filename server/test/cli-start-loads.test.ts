/**
 * What a start of `storefront-server` on JSON data loads (issue 49, start time): none of the packages only some
 * requests or commands need, whose loading was most of a start's CPU time (`npm run bench -- start-time`): Express
 * (the shell is `node:http`'s), the PostgreSQL driver, jose (the JWT bearer grant), the SDK's client entry (ky, and
 * with it Node's fetch); and of the bin itself one module. Every module the process resolves is written down by a
 * resolve hook registered at its start, on data a start before created.
 */
import { readFile } from 'node:fs/promises';
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
  const register = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  return `--import=data:text/javascript,${encodeURIComponent(register)}`;
}

it('answers its first request on existing data from one module of the bin, without loading Express, pg, jose or the SDK client', async () => {
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
  const answer = await fetch(`${origin}/.well-known/oauth-authorization-server`);
  expect(answer.status).toBe(200);
  const resolved = (await readFile(log, 'utf8')).split('\n');
  // The hook saw the process's modules: the SDK's internal entry among them.
  expect(resolved.some((url) => /\/sdk\/dist\/internal\.js$/.test(url))).toBe(true);
  // Of the bin, one module: what a start needs is joined into it, the rest (subcommands, the PostgreSQL store, the
  // control API, the OpenAPI document, the generated contract, the seed…) waits in chunks of its own.
  expect(resolved.filter((url) => url.includes('/server/dist/'))).toEqual([expect.stringMatching(/\/dist\/cli\.js$/)]);
  for (const unwanted of ['/node_modules/express/', '/node_modules/pg/', '/node_modules/jose/', '/node_modules/ky/']) {
    expect(resolved.filter((url) => url.includes(unwanted))).toEqual([]);
  }
  expect(resolved.filter((url) => /\/sdk\/dist\/index\.js$/.test(url))).toEqual([]);
  cli.child.kill('SIGINT');
  expect(await cli.exited).toBe(0);
});
