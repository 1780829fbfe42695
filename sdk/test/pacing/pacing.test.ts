/**
 * Pacing against the real reference server with a rate limit: a client given three times the quota of requests at
 * once sends them window by window and meets no 429, alone or as two instances sharing a budget in Redis; without
 * pacing, the same burst meets the limit (so that the counts below can fail).
 */
import {
  type Client,
  clientCredentials,
  createClient,
  createRateBudget,
  type RateBudget,
} from '@storefront-platform/sdk';
import { createRedisRateBudget } from '@storefront-platform/sdk/redis';
import { connectSandbox, createServer, type StorefrontServer } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type TestRedis } from '../../../test/support/redis-clients.js';
import { REDIS_SERVER, type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirement.js';

const QUOTA = 8;
const WINDOW_S = 2;

let server: StorefrontServer;
/** When the server received each API request (epoch ms): the windows it counted them in. */
let received: number[] = [];

beforeAll(async () => {
  server = await createServer({ port: 0, products: 2, explorer: false, rateLimit: `${QUOTA}/${WINDOW_S}s` });
});
afterAll(() => server.close());

/** A client of the demo app without retries (a 429 is an error), recording when its API requests reached the server. */
function client(pacing?: RateBudget | false, auth = demoAuth()): Client {
  return createClient({
    baseUrl: server.baseUrl,
    auth,
    retry: false,
    cache: false,
    ...(pacing === undefined ? {} : { pacing }),
    fetch: (input, init) => {
      if (new URL((input as Request).url ?? String(input)).pathname.startsWith('/v1')) received.push(Date.now());
      return fetch(input, init);
    },
  });
}

function demoAuth() {
  const { clientId, clientSecret } = server.credentials!;
  return clientCredentials({ authUrl: server.origin, clientId, clientSecret, scope: 'admin' });
}

/** Runs `count` reads of the root at once through `clients` in turn; the statuses of their failures. */
async function burst(clients: Client[], count: number): Promise<{ ok: number; failed: number[] }> {
  received = [];
  const results = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => clients[i % clients.length]!.root()),
  );
  return {
    ok: results.filter((result) => result.status === 'fulfilled').length,
    failed: results.flatMap((result) =>
      result.status === 'rejected' ? [(result.reason as { status?: number }).status ?? -1] : [],
    ),
  };
}

/** Requests the server received per window of its limit: none may pass the quota. */
function perWindow(): number[] {
  const counts = new Map<number, number>();
  for (const at of received) {
    const window = Math.floor(at / (WINDOW_S * 1000));
    counts.set(window, (counts.get(window) ?? 0) + 1);
  }
  return [...counts.values()];
}

describe('pacing by the rate limit fields', () => {
  it('sends three times the quota window by window, with no 429', async () => {
    const { ok, failed } = await burst([client()], QUOTA * 3);
    expect(failed).toEqual([]);
    expect(ok).toBe(QUOTA * 3);
    // At least three windows were used, none over the quota: the burst took about the windows it needed.
    const windows = perWindow();
    expect(windows.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...windows)).toBeLessThanOrEqual(QUOTA);
  }, 30_000);

  it('meets the limit without pacing: the same burst gets 429s', async () => {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
    const { failed } = await burst([client(false)], QUOTA * 3);
    expect(failed.length).toBeGreaterThanOrEqual(QUOTA);
    expect(new Set(failed)).toEqual(new Set([429]));
  }, 30_000);

  it('starts from nothing known with one request, then lets the budget go at once', async () => {
    const budget = createRateBudget();
    // Nothing known: the first request probes, the next waits for its answer.
    expect(budget.take('owner')).toBe(0);
    expect(budget.take('owner')).toBeGreaterThan(0);
    budget.observe('owner', { remaining: 2, resetSeconds: 10, quota: 3, windowSeconds: 10 }, 5);
    expect([budget.take('owner'), budget.take('owner')]).toEqual([0, 0]);
    expect(budget.take('owner')).toBeGreaterThan(9_000);
    // A server without fields: every request goes.
    const free = createRateBudget();
    free.take('owner');
    free.observe('owner', null, 5);
    expect(Array.from({ length: 20 }, () => free.take('owner'))).toEqual(Array(20).fill(0));
  });
});

/**
 * A budget whose server stops sending fields on its successful answers (a sandbox's limit turned off) lets requests
 * go from its next answer on, after one probe; an error answer without fields, or none, forgets nothing.
 */
async function forgetsALimitTurnedOff(budget: RateBudget) {
  const spent = { remaining: 0, resetSeconds: 30, quota: 5, windowSeconds: 30 };
  const owner = `off-${Math.random()}`;
  expect(await budget.take(owner)).toBe(0);
  await budget.observe(owner, spent, 5);
  expect(await budget.take(owner)).toBeGreaterThan(20_000);
  // A proxy's 502, a 401, an abort: nothing learnt, twice.
  await budget.observe(owner, undefined, 5);
  await budget.observe(owner, undefined, 5);
  expect(await budget.take(owner)).toBeGreaterThan(20_000);
  await budget.observe(owner, null, 5);
  expect(await budget.take(owner)).toBe(0);
  expect(await budget.take(owner)).toBeGreaterThan(0);
  await budget.observe(owner, null, 5);
  const takes = await Promise.all(Array.from({ length: 10 }, () => budget.take(owner)));
  expect(takes).toEqual(Array(10).fill(0));
}

it('lets reads go once a limit turned off answers without fields: after its window, not a window at a time', async () => {
  const limited = await createServer({ port: 0, products: 1, explorer: false, control: true, rateLimit: '3/2s' });
  try {
    const { clientId, clientSecret } = limited.credentials!;
    const auth = clientCredentials({ authUrl: limited.origin, clientId, clientSecret, scope: 'admin' });
    const windows = new Set<number>();
    const sdk = createClient({
      baseUrl: limited.baseUrl,
      auth,
      retry: false,
      cache: false,
      fetch: (input, init) => {
        if (new URL((input as Request).url).pathname.startsWith('/v1')) windows.add(Math.floor(Date.now() / 2000));
        return fetch(input, init);
      },
    });
    for (let i = 0; i < 3; i++) await sdk.root();
    await connectSandbox(limited.control!).rateLimit.set(null);
    windows.clear();
    await Promise.all(Array.from({ length: 12 }, () => sdk.root()));
    // Paced still, 12 reads at 3 a window would take four windows; freed, the first answer without fields frees them.
    expect(windows.size).toBeLessThanOrEqual(2);
  } finally {
    await limited.close();
  }
}, 30_000);

it('forgets a limit turned off (in memory)', () => forgetsALimitTurnedOff(createRateBudget()));

describe.skipIf(skipWithout(REDIS_SERVER, 'Pacing shared through Redis'))('pacing shared through Redis', () => {
  let redisServer: RedisServer;
  let redis: TestRedis;
  beforeAll(async () => {
    redisServer = await startRedisServer();
    redis = await connectRedis('redis', redisServer.url);
  });
  afterAll(async () => {
    await redis?.close();
    await redisServer?.stop();
  });

  it('forgets a limit turned off (in Redis)', () =>
    forgetsALimitTurnedOff(createRedisRateBudget({ client: redis.client, prefix: 'pacing-off' })));

  it('keeps two instances of one authorization within one quota: three times it, no 429', async () => {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
    // One strategy per instance, as two processes have, each with its own token of the same app and user.
    const instances = [0, 1].map(() => client(createRedisRateBudget({ client: redis.client, prefix: 'pacing-test' })));
    const { ok, failed } = await burst(instances, QUOTA * 3);
    expect(failed).toEqual([]);
    expect(ok).toBe(QUOTA * 3);
    const windows = perWindow();
    expect(windows.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...windows)).toBeLessThanOrEqual(QUOTA);
  }, 30_000);
});
