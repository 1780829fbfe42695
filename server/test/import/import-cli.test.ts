/**
 * `storefront-server import` as a process (the CLI's source through tsx): killed with SIGKILL in the middle and run
 * again, it continues and ends with the files of an uninterrupted import. The command in-process: bad flags exit
 * 2, a wrong secret 1 with a line that names it, never a stack trace.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { importShop } from '../../src/import/import-shop.js';
import { runImport } from '../../src/import-command.js';
import { type DemoCredentials, seed } from '../../src/seed/index.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { treeHashes } from './tree-hashes.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SECRET = 'cli-source-secret-0b4e27';
const tempDir = useTempDir();

let source: StorefrontServer;
let credentials: DemoCredentials;
const children: ChildProcess[] = [];

beforeAll(async () => {
  // Some 700 rows to fetch: the kill, at 200 rows seen (polled every 20 ms; up to 300 fetched by then on a loaded
  // machine), lands well before the end, and the import twice (bin, then in-process) stays short.
  const seeded = seed({ seed: 2, products: 1000, clientSecret: SECRET });
  credentials = seeded.credentials;
  source = await createServer({ port: 0, data: seeded.dataset });
}, 60_000);

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

afterAll(async () => {
  await source?.close();
});

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

function run(args: string[], secret = SECRET): Run {
  const env: NodeJS.ProcessEnv = { ...process.env, STOREFRONT_REMOTE_CLIENT_SECRET: secret };
  for (const name of Object.keys(env)) if (name.startsWith('STOREFRONT_') && !name.includes('REMOTE')) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'import', ...args], { cwd: ROOT, env });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

const lines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0);

describe('storefront-server import', () => {
  it('continues after a kill -9 and ends with the files of an uninterrupted import', async () => {
    const dir = join(await tempDir(), 'copy');
    const args = ['--from', source.baseUrl, '--to', dir, '--client-id', credentials.clientId, '--concurrency', '2'];
    const first = run(args);
    const state = join(`${dir}.partial`, 'fetched.jsonl');
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (lines(state) >= 200) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
      first.exited.then((code) => {
        clearInterval(timer);
        reject(new Error(`the import ended (${code}) before it could be killed:\n${first.out()}\n${first.err()}`));
      });
    });
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(join(dir, 'db.json'))).toBe(false);
    const kept = lines(state);
    const staged = readFileSync(state, 'utf8');
    expect(staged).not.toContain(SECRET);

    const second = run(args);
    expect(await second.exited, second.err()).toBe(0);
    const reused = Number(second.out().match(/(\d+) kept from an earlier run/)?.[1]);
    expect(reused).toBeGreaterThanOrEqual(kept - 1);
    expect(second.out()).toMatch(/Client secret: msw-demo-client-secret/);
    // No bar off a terminal: a line per shop.
    expect(second.err()).toMatch(/^shop 1 Northwind Outfitters: \d+ products/m);
    expect(existsSync(`${dir}.partial`)).toBe(false);

    const uninterrupted = join(await tempDir(), 'whole');
    await importShop({
      from: { url: source.baseUrl, clientId: credentials.clientId, clientSecret: SECRET },
      to: uninterrupted,
    });
    expect(await treeHashes(dir)).toEqual(await treeHashes(uninterrupted));
  }, 180_000);

  it('exits 2 on bad flags and 1 with the credential to check on a wrong secret', async () => {
    const to = join(await tempDir(), 'x');
    const base = ['--from', source.baseUrl, '--to', to, '--client-id', credentials.clientId];
    const said: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void said.push(line));
    const call = async (argv: string[], secret = SECRET) => {
      said.length = 0;
      const code = await runImport(argv, { STOREFRONT_REMOTE_CLIENT_SECRET: secret });
      return { code, err: said.join('\n') };
    };
    try {
      for (const bad of [
        ['--from', source.baseUrl],
        [...base, '--products', 'many'],
        [...base, '--since', 'yesterday'],
        [...base, '--concurrency', '0'],
        [...base, '--public-url', 'not a url'],
        [...base, '--shops', ','],
        [...base, '--nope'],
        ['--from', 'ftp://x/v1', '--to', to, '--client-id', 'c'],
        ['--from', 'http://user:pw@127.0.0.1:9/v1', '--to', to, '--client-id', 'c'],
      ]) {
        const { code, err } = await call(bad);
        expect(code, bad.join(' ')).toBe(2);
        expect(err).toMatch(/^storefront-server import: /);
      }
      const wrong = await call(base, 'not-the-secret');
      expect(wrong.code).toBe(1);
      expect(wrong.err).toMatch(/refused the app's credentials.*STOREFRONT_REMOTE_CLIENT_SECRET/);
      expect(wrong.err).not.toMatch(/^\s+at /m);
      expect(wrong.err).not.toContain('not-the-secret');
      const shop = await call([...base, '--shops', '3']);
      expect(shop).toEqual({ code: 1, err: expect.stringMatching(/shop 3 is not among the shops/) });
    } finally {
      spy.mockRestore();
    }
    expect(existsSync(join(to, 'db.json'))).toBe(false);
    // Nothing was fetched: no staging directory is left to resume from.
    expect(existsSync(`${to}.partial`)).toBe(false);
  }, 60_000);
});
