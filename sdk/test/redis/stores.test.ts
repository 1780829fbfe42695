/**
 * The token store contract, on the in-memory store and on Redis (a real redis-server on a free port), and the
 * Redis cache store: TTL, size bound, prefixes, and what an outage does to each.
 */
import { createClient as createRedis } from 'redis';
import { createHttpCache, createMemoryTokenStore, type TokenInfo, TokenStoreError } from 'storefront-sdk';
import { createRedisCacheStore, createRedisTokenStore } from 'storefront-sdk/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { underCi } from '../../../test/support/ci.js';
import { haveRedisServer, type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { type ReferenceServer, startReferenceServer } from '../helpers/reference-server.js';

const token = (accessToken: string): TokenInfo => ({ accessToken, tokenType: 'Bearer', scopes: ['admin'] });
const available = haveRedisServer();
if (!available && underCi) throw new Error('redis-server is missing: .ci/run installs it');
if (!available)
  console.warn('\n!!! redis-server not found: the Redis store tests are SKIPPED (apt-get install redis-server)\n');

let server: RedisServer;
let redis: ReturnType<typeof createRedis>;
beforeAll(async () => {
  if (!available) return;
  server = await startRedisServer();
  redis = createRedis({ url: server.url, socket: { reconnectStrategy: () => 50 } });
  redis.on('error', () => {});
  await redis.connect();
});
afterAll(async () => {
  if (!available) return;
  redis.destroy();
  await server.stop();
});

const stores = [
  { name: 'memory', make: () => createMemoryTokenStore() },
  { name: 'redis', make: () => createRedisTokenStore({ client: redis, prefix: `t${Math.random()}` }) },
];

describe.each(stores)('token store: $name', ({ name, make }) => {
  it.skipIf(name === 'redis' && !available)('stores a token only over the one it expects', async () => {
    const store = make();
    expect(await store.get('user:1')).toBeUndefined();
    expect(await store.compareAndSet('user:1', undefined, token('a'))).toBe(true);
    expect(await store.compareAndSet('user:1', undefined, token('b'))).toBe(false);
    expect(await store.compareAndSet('user:1', 'stale', token('b'))).toBe(false);
    expect(await store.get('user:1')).toEqual(token('a'));
    expect(await store.compareAndSet('user:1', 'a', token('b'))).toBe(true);
    expect((await store.get('user:1'))?.accessToken).toBe('b');
    expect(await store.get('user:2')).toBeUndefined();
  });

  it.skipIf(name === 'redis' && !available)('lends the lease to one holder until released or expired', async () => {
    const store = make();
    const lease = await store.acquire('user:1', 60_000);
    expect(lease).toBeTypeOf('string');
    expect(await store.acquire('user:1', 60_000)).toBeUndefined();
    expect(await store.acquire('user:2', 60_000)).toBeTypeOf('string');
    await store.release('user:1', 'somebody else');
    expect(await store.acquire('user:1', 60_000)).toBeUndefined();
    await store.release('user:1', lease!);
    const short = await store.acquire('user:1', 50);
    expect(short).toBeTypeOf('string');
    await new Promise((resolve) => setTimeout(resolve, 120));
    // A crashed holder never releases: the lease expires.
    expect(await store.acquire('user:1', 60_000)).toBeTypeOf('string');
  });
});

describe.skipIf(!available)('Redis stores', () => {
  it('keep keys under their prefix, cache entries with a TTL, and skip entries over the size bound', async () => {
    const cache = createRedisCacheStore({ client: redis, prefix: 'app1', ttl: 600, maxEntryBytes: 2_000 });
    const entry = { url: 'http://x/v1/', status: 200, headers: { etag: '"1"' }, body: '{}', storedAt: 1 };
    await cache.set('user:1 http://x/v1/', entry);
    expect(await cache.get('user:1 http://x/v1/')).toEqual(entry);
    const ttl = Number(await redis.sendCommand(['TTL', 'app1:cache:user:1 http://x/v1/']));
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
    await cache.set('user:1 http://x/v1/big', { ...entry, body: 'x'.repeat(3_000) });
    expect(await cache.get('user:1 http://x/v1/big')).toBeUndefined();
    await cache.delete('user:1 http://x/v1/');
    expect(await cache.get('user:1 http://x/v1/')).toBeUndefined();

    const tokens = createRedisTokenStore({ client: redis, prefix: 'app1' });
    await tokens.compareAndSet('user:9', undefined, token('t'));
    expect(await redis.sendCommand(['EXISTS', 'app1:token:user:9'])).toBe(1);
  });

  it('keeps entries in memory by version, yet always answers with what another instance stored last', async () => {
    const one = createRedisCacheStore({ client: redis, prefix: 'versions' });
    const two = createRedisCacheStore({ client: redis, prefix: 'versions' });
    const entry = (etag: string, body: string) => ({
      url: 'http://x/t',
      status: 200,
      headers: { etag },
      body,
      storedAt: 1,
    });
    await one.set('k', entry('"1"', 'first'));
    expect((await two.get('k'))?.body).toBe('first');
    expect((await two.get('k'))?.body).toBe('first');
    await one.set('k', entry('"2"', 'second'));
    expect((await two.get('k'))?.body).toBe('second');
    await one.delete('k');
    expect(await two.get('k')).toBeUndefined();
    // Without a strong ETag there is no version: the whole entry is read each time.
    await one.set('k', entry('W/"3"', 'weak'));
    expect((await two.get('k'))?.body).toBe('weak');
    await one.set('k', entry('W/"3"', 'weak, changed'));
    expect((await two.get('k'))?.body).toBe('weak, changed');
  });

  it('fail with a typed error (tokens) or a rejection (cache) while Redis is down, and work again after', async () => {
    const tokens = createRedisTokenStore({ client: redis, prefix: 'outage', commandTimeout: 300 });
    const cache = createRedisCacheStore({ client: redis, prefix: 'outage', commandTimeout: 300 });
    await tokens.compareAndSet('user:1', undefined, token('a'));
    await server.stop();
    try {
      await expect(tokens.get('user:1')).rejects.toBeInstanceOf(TokenStoreError);
      await expect(tokens.acquire('user:1', 1_000)).rejects.toMatchObject({ code: 'TOKEN_STORE' });
      await expect(cache.get('k')).rejects.toThrow();
    } finally {
      await server.start();
    }
    await expect.poll(() => tokens.get('user:1').catch(() => 'down'), { timeout: 5_000 }).toBeUndefined();
    // The server restarted empty (no persistence): the store answers again, with what it now holds.
    expect(await tokens.compareAndSet('user:1', undefined, token('b'))).toBe(true);
  });
});

describe.skipIf(!available)('an HTTP cache on Redis, against the reference server', () => {
  let ref: ReferenceServer;
  beforeAll(async () => {
    ref = await startReferenceServer();
  });
  afterAll(() => ref.server.close());

  it('revalidates through Redis, falls back to full requests while Redis is down, and revalidates again after', async () => {
    const errors: unknown[] = [];
    const events: unknown[] = [];
    const store = createRedisCacheStore({ client: redis, prefix: 'http', commandTimeout: 300 });
    const client = ref.client({
      cache: createHttpCache({ store, onError: (error) => errors.push(error) }),
      on: { 'cache:error': ({ error }) => events.push(error) },
    });
    const theme = async () => {
      const root = await client.root();
      const shop = await root.embedded('shops')[0]!.follow('self');
      return (await shop.follow('svc:theme')).response!;
    };
    expect((await theme()).revalidated).toBe(false);
    expect((await theme()).revalidated).toBe(true);
    await server.stop();
    try {
      const during = await theme();
      expect(during).toMatchObject({ status: 200, revalidated: false });
      expect(errors.length).toBeGreaterThan(0);
      // The client reports the same failures as events, for its log.
      expect(events).toEqual(errors);
    } finally {
      await server.start();
    }
    await expect.poll(async () => (await theme()).revalidated, { timeout: 5_000 }).toBe(true);
  });
});
