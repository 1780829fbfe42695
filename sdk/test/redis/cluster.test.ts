/**
 * The Redis stores on cluster clients (node-redis 5 and 4, ioredis 5 and 6), against a real redis-server running
 * as a cluster of one node: each command reaches the node of its key. The failure cases are those of the plain
 * clients (stores.test.ts); what differs here is the sending.
 */
import { createRedisCacheStore, createRedisTokenStore } from '@storefront-platform/sdk/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisCluster, REDIS_CLIENT_KINDS, type TestRedis } from '../../../test/support/redis-clients.js';
import { REDIS_SERVER, type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { token, tokenStoreContract } from './token-store-contract.js';

const available = !skipWithout(REDIS_SERVER, 'The Redis cluster tests');

let server: RedisServer;
beforeAll(async () => {
  if (available) server = await startRedisServer({ cluster: true });
});
afterAll(() => server?.stop());

describe.skipIf(!available).each(REDIS_CLIENT_KINDS.map((kind) => ({ kind })))('on a $kind cluster', ({ kind }) => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await connectRedisCluster(kind, server.url);
  });
  afterAll(() => redis?.close());

  describe('token store', () =>
    tokenStoreContract(() => createRedisTokenStore({ client: redis.client, prefix: `${kind}${Math.random()}` })));

  it('cache store: stores, reads and deletes an entry under its prefix', async () => {
    const prefix = `${kind}-cache`;
    const cache = createRedisCacheStore({ client: redis.client, prefix, localEntries: 0 });
    const entry = { url: 'http://x/v1/', status: 200, headers: { etag: '"1"' }, body: '{}', storedAt: 1 };
    await cache.set('user:1 http://x/v1/', entry);
    expect(await cache.get('user:1 http://x/v1/')).toEqual(entry);
    expect(await redis.send('HGET', `${prefix}:cache:user:1 http://x/v1/`, 'v')).toBe('"1"');
    await cache.delete('user:1 http://x/v1/');
    expect(await cache.get('user:1 http://x/v1/')).toBeUndefined();
    const tokens = createRedisTokenStore({ client: redis.client, prefix });
    expect(await tokens.compareAndSet('user:1', undefined, token('t'))).toBe(true);
    expect(await redis.send('EXISTS', `${prefix}:token:user:1`)).toBe(1);
  });
});
