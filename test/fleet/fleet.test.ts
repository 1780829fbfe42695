/**
 * Several app instances (real processes) acting on one authorization, against the real reference server: with
 * a shared Redis token store one exchange serves them all; without it they lock each other out (the server
 * accepts one JWT bearer exchange per token), with each Redis client the stores accept. Plus the lease of a
 * holder that dies, a refresh cut after the token response (Redis stopped, or the holder killed), and a cache
 * shared through Redis.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForNode } from '../support/node-bundle.js';
import { REDIS_CLIENT_KINDS } from '../support/redis-clients.js';
import { REDIS_SERVER, type RedisServer, startRedisServer } from '../support/redis-server.js';
import { skipWithout } from '../support/requirement.js';

const PASSWORD = 'fleet demo password';

const available = !skipWithout(REDIS_SERVER, 'The fleet tests');

let server: StorefrontServer;
let redis: RedisServer;
/** worker.ts bundled once: the file starts some forty workers. */
let worker: string;

beforeAll(async () => {
  if (!available) return;
  server = await createServer({ port: 0, products: 12, demo: { password: PASSWORD } });
  redis = await startRedisServer();
  worker = await bundleForNode(new URL('./worker.ts', import.meta.url));
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

type Result = Record<string, unknown>;

interface Worker {
  process: ChildProcess;
  /** Resolves with the worker's last JSON result, or `undefined` when it died. */
  result: Promise<Result | undefined>;
  /** The JSON result of the next round (rounds: see ROUNDS in worker.ts). */
  next(): Promise<Result>;
  /** Resolves when the worker is about to send a token request. */
  exchanging: Promise<void>;
  /** Resolves when the worker holds back a token response (HOLD_AFTER_TOKEN). */
  exchanged: Promise<void>;
  ready: Promise<void>;
}

async function startWorkers(count: number, env: Record<string, string>): Promise<Worker[]> {
  const workers = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, [worker], {
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
    let onExchanged: () => void = () => {};
    const exchanged = new Promise<void>((resolve) => {
      onExchanged = resolve;
    });
    const results: Result[] = [];
    const waiting: ((result: Result) => void)[] = [];
    let seen = 0;
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        if (out.includes('ready\n')) resolve();
        if (out.includes('exchanging\n')) onExchanging();
        if (out.includes('exchanged\n')) onExchanged();
        const lines = out
          .slice(0, out.lastIndexOf('\n'))
          .split('\n')
          .filter((line) => line.startsWith('{'));
        for (; seen < lines.length; seen++) {
          const result = JSON.parse(lines[seen]!) as Result;
          const waiter = waiting.shift();
          if (waiter) waiter(result);
          else results.push(result);
        }
      });
      child.once('exit', () => reject(new Error(`worker exited before it was ready:\n${out}`)));
    });
    const next = () =>
      results.length > 0 ? Promise.resolve(results.shift()!) : new Promise<Result>((r) => waiting.push(r));
    const result = new Promise<Record<string, unknown> | undefined>((resolve) => {
      child.once('exit', () => {
        const last = out.trim().split('\n').at(-1) ?? '';
        resolve(last.startsWith('{') ? JSON.parse(last) : undefined);
      });
    });
    return { process: child, result, next, exchanging, exchanged, ready };
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
      // 200 requests wait on one lease at once: on a starved machine (load 17 seen) a Redis answer may take longer
      // than the SDK's 1 s default fence, which this test is not about; the fence has tests of its own.
      const env = {
        ACCESS_TOKEN: token,
        REDIS_URL: redis.url,
        REDIS_CLIENT: kind,
        PREFIX: `fleet1-${kind}`,
        COMMAND_TIMEOUT_MS: '10000',
      };
      const workers = await startWorkers(4, env);
      go(workers);
      const results = await Promise.all(workers.map((w) => w.result));
      expect(results.flatMap((r) => r?.messages as string[])).toEqual([]);
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
    // "Already exchanged": the token that replaced theirs is in another process's hands, out of their reach.
    const refused = results.filter((r) => (r?.errors as string[] | undefined)?.includes('AUTHORIZATION_LOST'));
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

  it('Redis stopped while the holder stores the new token: the holder goes on, then the others adopt it', async () => {
    const token = await expiredUserToken();
    const before = server.store.all('tokens').length;
    const lease = 3000;
    const env = { ACCESS_TOKEN: token, REDIS_URL: redis.url, PREFIX: 'fleet-cut', LEASE_MS: String(lease) };
    const [holder] = await startWorkers(1, { ...env, HOLD_AFTER_TOKEN: '1', CONCURRENCY: '5', ROUNDS: '3' });
    const others = await startWorkers(3, { ...env, CONCURRENCY: '20' });
    go([holder!]);
    await holder!.exchanged;
    // The server answered (it revoked the old token); Redis dies before the holder stores the new one.
    await redis.stop();
    holder!.process.stdin!.write('continue\n');
    const during = await holder!.next();
    expect(during).toMatchObject({ ok: 5, exchanges: 1 });
    // Still down: the holder keeps reading with the token it got.
    go([holder!]);
    expect(await holder!.next()).toMatchObject({ ok: 5, token: during.token, exchanges: 1 });

    await redis.start();
    const back = Date.now();
    go(others);
    const results = await Promise.all(others.map((w) => w.result));
    const waited = Date.now() - back;
    const tried = results.map((r) => r?.exchanges).join(', ');
    console.log(
      `Redis back: the others read with the holder's token after ${waited} ms (lease ${lease} ms); exchanges ${tried}`,
    );
    expect(results.map((r) => r?.ok)).toEqual([20, 20, 20]);
    expect(results.map((r) => r?.token)).toEqual([during.token, during.token, during.token]);
    // Each tried one exchange at most (refused: the holder's token was then adopted), never a loop.
    for (const r of results) expect(r?.exchanges).toBeLessThanOrEqual(1);
    expect(waited).toBeLessThan(lease + 10_000);
    go([holder!]);
    expect(await holder!.result).toMatchObject({ ok: 5, token: during.token, exchanges: 1 });
    expect(server.store.all('tokens').length - before).toBe(1);
  }, 60_000);

  it('the holder killed after the token response: each instance gets AuthorizationLostError once, no storm', async () => {
    const token = await expiredUserToken();
    const before = server.store.all('tokens').length;
    const lease = 1500;
    const env = { ACCESS_TOKEN: token, REDIS_URL: redis.url, PREFIX: 'fleet-lost', LEASE_MS: String(lease) };
    const [holder] = await startWorkers(1, { ...env, HOLD_AFTER_TOKEN: '1', CONCURRENCY: '5' });
    const others = await startWorkers(3, { ...env, CONCURRENCY: '20', ROUNDS: '2' });
    go([holder!]);
    await holder!.exchanged;
    holder!.process.kill('SIGKILL');
    expect(await holder!.result).toBeUndefined();

    const started = Date.now();
    go(others);
    const first = await Promise.all(others.map((w) => w.next()));
    const tried = first.map((r) => r.exchanges).join(', ');
    console.log(`authorization lost, known after ${Date.now() - started} ms (lease ${lease} ms); exchanges ${tried}`);
    for (const r of first) {
      expect(r).toMatchObject({ ok: 0, lost: 1 });
      expect(r.errors).toEqual(Array(20).fill('AUTHORIZATION_LOST'));
      expect(r.exchanges).toBeLessThanOrEqual(1);
    }
    // Every instance asked once in all (one refused exchange each at most, which the others may have saved).
    const exchanges = first.reduce((sum, r) => sum + (r.exchanges as number), 0);
    expect(exchanges).toBeGreaterThanOrEqual(1);
    // Later requests fail at once: no token request, no API request, no second call of the hook.
    go(others);
    const second = await Promise.all(others.map((w) => w.result));
    second.forEach((r, i) => {
      expect(r).toMatchObject({ ok: 0, lost: 1, exchanges: first[i]!.exchanges, requests: first[i]!.requests });
    });
    // The holder's token is the only one the server issued.
    expect(server.store.all('tokens').length - before).toBe(1);
  }, 60_000);

  it('client credentials, the holder killed after the token response: the others get a token of their own', async () => {
    const before = server.store.all('tokens').length;
    const env = { STRATEGY: 'client_credentials', REDIS_URL: redis.url, PREFIX: 'fleet-cc', LEASE_MS: '1500' };
    const [holder] = await startWorkers(1, { ...env, HOLD_AFTER_TOKEN: '1', CONCURRENCY: '5' });
    const others = await startWorkers(3, { ...env, CONCURRENCY: '20' });
    go([holder!]);
    await holder!.exchanged;
    holder!.process.kill('SIGKILL');
    go(others);
    const results = await Promise.all(others.map((w) => w.result));
    expect(results.map((r) => r?.ok)).toEqual([20, 20, 20]);
    expect(new Set(results.map((r) => r?.token)).size).toBe(1);
    // One token request among them: the holder's lost token, and one more.
    expect(results.reduce((sum, r) => sum + (r?.exchanges as number), 0)).toBe(1);
    expect(server.store.all('tokens').length - before).toBe(2);
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
