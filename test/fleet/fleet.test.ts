/**
 * Several app instances (real processes) acting on one authorization, against the real reference server: with
 * a shared Redis token store one exchange serves them all; without it they lock each other out (the server
 * accepts one JWT bearer exchange per token), with each Redis client the stores accept. Plus the lease of a
 * holder that dies, and a cache shared through Redis.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { underCi } from '../support/ci.js';
import { REDIS_CLIENT_KINDS } from '../support/redis-clients.js';
import { haveRedisServer, type RedisServer, startRedisServer } from '../support/redis-server.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const PASSWORD = 'fleet demo password';

const available = haveRedisServer();
if (!available && underCi) throw new Error('redis-server is missing: .ci/run installs it');
if (!available)
  console.warn('\n!!! redis-server not found: the fleet tests are SKIPPED (apt-get install redis-server)\n');

let server: StorefrontServer;
let redis: RedisServer;

beforeAll(async () => {
  if (!available) return;
  server = await createServer({ port: 0, products: 12, demo: { password: PASSWORD } });
  redis = await startRedisServer();
});
afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

/** A user token of the demo user (password grant), expired at once in the server's store. */
async function expiredUserToken(): Promise<string> {
  const { clientId, clientSecret, login } = server.credentials!;
  const response = await fetch(`${server.origin}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username: login, password: PASSWORD, scope: 'admin' }),
  });
  const { access_token: token } = (await response.json()) as { access_token: string };
  const row = server.store.all('tokens').at(-1)!;
  await server.store.write((tx) => tx.update('tokens', row.id, { expires_at: Date.now() - 1 }));
  return token;
}

interface Worker {
  process: ChildProcess;
  /** Resolves with the worker's JSON result, or `undefined` when it died. */
  result: Promise<Record<string, unknown> | undefined>;
  /** Resolves when the worker is about to send a token request. */
  exchanging: Promise<void>;
  ready: Promise<void>;
}

async function startWorkers(count: number, env: Record<string, string>): Promise<Worker[]> {
  const workers = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, ['--import', TSX, WORKER], {
      env: {
        ...process.env,
        STOREFRONT_URL: server.origin,
        CLIENT_ID: server.credentials!.clientId,
        CLIENT_SECRET: server.credentials!.clientSecret,
        ...env,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    let onExchanging: () => void = () => {};
    const exchanging = new Promise<void>((resolve) => {
      onExchanging = resolve;
    });
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        if (out.includes('ready\n')) resolve();
        if (out.includes('exchanging\n')) onExchanging();
      });
      child.once('exit', () => reject(new Error(`worker exited before it was ready:\n${out}`)));
    });
    const result = new Promise<Record<string, unknown> | undefined>((resolve) => {
      child.once('exit', () => {
        const last = out.trim().split('\n').at(-1) ?? '';
        resolve(last.startsWith('{') ? JSON.parse(last) : undefined);
      });
    });
    return { process: child, result, exchanging, ready };
  });
  await Promise.all(workers.map((w) => w.ready));
  return workers;
}

const go = (workers: Worker[]) => {
  for (const w of workers) w.process.stdin!.write('go\n');
};

describe.skipIf(!available)('a fleet of app instances on one authorization', () => {
  it.each(REDIS_CLIENT_KINDS)(
    '4 processes × 50 concurrent requests with one expired token: one exchange, 200 successes, one new token (%s)',
    async (kind) => {
      const token = await expiredUserToken();
      const before = server.store.all('tokens').length;
      const env = { ACCESS_TOKEN: token, REDIS_URL: redis.url, REDIS_CLIENT: kind, PREFIX: `fleet1-${kind}` };
      const workers = await startWorkers(4, env);
      go(workers);
      const results = await Promise.all(workers.map((w) => w.result));
      expect(results.map((r) => r?.ok)).toEqual([50, 50, 50, 50]);
      expect(new Set(results.map((r) => r?.token)).size).toBe(1);
      expect(results[0]?.token).not.toBe(token);
      // Exactly one new token was issued (the server keeps one row per token): one exchange at the server.
      expect(server.store.all('tokens').length - before).toBe(1);
    },
    60_000,
  );

  it('without a shared store, the same fleet locks itself out: all but one exchange are refused', async () => {
    const token = await expiredUserToken();
    const before = server.store.all('tokens').length;
    const workers = await startWorkers(4, { ACCESS_TOKEN: token });
    go(workers);
    const results = await Promise.all(workers.map((w) => w.result));
    const refused = results.filter((r) => (r?.errors as string[] | undefined)?.includes('OAUTH_ERROR'));
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(new Set(results.map((r) => r?.token)).size).toBeGreaterThan(1);
    expect(server.store.all('tokens').length - before).toBe(1);
  }, 60_000);

  it('a lease holder killed in its exchange: another process refreshes after the lease, none hangs', async () => {
    const token = await expiredUserToken();
    const env = { ACCESS_TOKEN: token, REDIS_URL: redis.url, PREFIX: 'fleet3', LEASE_MS: '1500' };
    const [holder] = await startWorkers(1, { ...env, EXCHANGE_DELAY_MS: '60000', CONCURRENCY: '5' });
    go([holder!]);
    await holder!.exchanging;
    const others = await startWorkers(3, { ...env, CONCURRENCY: '20' });
    go(others);
    holder!.process.kill('SIGKILL');
    const started = Date.now();
    const results = await Promise.all(others.map((w) => w.result));
    expect(await holder!.result).toBeUndefined();
    expect(results.map((r) => r?.ok)).toEqual([20, 20, 20]);
    expect(new Set(results.map((r) => r?.token)).size).toBe(1);
    const waited = Date.now() - started;
    console.log(`after the holder died, the fleet refreshed in ${waited} ms (lease 1500 ms)`);
    // Within the lease given (plus room for a loaded machine), not the 30 s default a lost setting would mean.
    expect(waited).toBeLessThan(15_000);
  }, 60_000);

  it("shares the HTTP cache: process B's first read of a theme process A read is a 304", async () => {
    const token = await expiredUserToken();
    const env = { ACCESS_TOKEN: token, REDIS_URL: redis.url, PREFIX: 'fleet4', JOB: 'theme' };
    const [a] = await startWorkers(1, env);
    go([a!]);
    expect(await a!.result).toMatchObject({ status: 200, revalidated: false });
    const [b] = await startWorkers(1, env);
    go([b!]);
    expect(await b!.result).toMatchObject({ status: 200, revalidated: true });
  }, 60_000);
});
