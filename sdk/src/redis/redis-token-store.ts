import type { TokenStore } from '../auth/token-store.js';
import type { TokenInfo } from '../auth/types.js';
import { TokenStoreError } from '../errors/token-store-error.js';
import type { RedisClient, RedisStoreOptions } from './redis-client.js';
import { redisStore } from './redis-commands.js';

/** Sets KEYS[1] to ARGV[2] if its token is ARGV[1] ('' for none): one round trip, atomic in Redis. */
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
local held = ''
if current then held = cjson.decode(current).accessToken end
if held ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`;

/** Deletes the lease KEYS[1] only if ARGV[1] still holds it. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * A {@link TokenStore} in Redis, shared by every instance of an app: the token of an authorization under
 * `{prefix}:token:{owner}`, its refresh lease under `{prefix}:lease:{owner}` with an expiry. Tokens are kept only
 * here and in the instances' memory. A Redis failure rejects with a `TokenStoreError`; a `client` that is no
 * {@link RedisClient} throws a `TypeError` at once.
 *
 * @example
 * import { createClient as createRedis } from 'redis';
 * import { authorized, createClient } from '@storefront-platform/sdk';
 * import { createRedisTokenStore } from '@storefront-platform/sdk/redis';
 *
 * const redis = await createRedis({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * // or ioredis: const redis = new Redis(process.env.REDIS_URL).on('error', console.error);
 * const client = createClient({
 *   baseUrl,
 *   auth: authorized({ ...app, accessToken, tokenStore: createRedisTokenStore({ client: redis }) }),
 * });
 */
export function createRedisTokenStore(options: RedisStoreOptions): TokenStore {
  const store = redisStore(options);
  const run = async (what: string, args: string[]) => {
    try {
      return await store.run(args);
    } catch (cause) {
      // node-redis refuses every command of a client never connected (or quit), and says no more than that.
      const hint = /^The client is closed$/.test(String((cause as Error)?.message))
        ? ' (connect the node-redis client first: await client.connect())'
        : '';
      throw new TokenStoreError(`Redis token store: ${what} failed: ${(cause as Error).message}${hint}`, { cause });
    }
  };
  const tokenKey = (key: string) => store.key('token', key);
  const leaseKey = (key: string) => store.key('lease', key);
  let leases = 0;
  // Unique enough across instances: a lease id only has to differ from the other holders' ids.
  const instance = Math.random().toString(36).slice(2);

  return {
    async get(key) {
      const stored = await run('reading a token', ['GET', tokenKey(key)]);
      if (stored === null || stored === undefined) return undefined;
      try {
        return JSON.parse(String(stored)) as TokenInfo;
      } catch (cause) {
        throw new TokenStoreError(`Redis token store: ${tokenKey(key)} does not hold a token`, { cause });
      }
    },
    async compareAndSet(key, expected, next) {
      const args = ['EVAL', COMPARE_AND_SET, '1', tokenKey(key), expected ?? '', JSON.stringify(next)];
      return Number(await run('storing a token', args)) === 1;
    },
    async acquire(key, ttlMs) {
      const id = `${instance}:${++leases}`;
      const reply = await run('taking the refresh lease', ['SET', leaseKey(key), id, 'NX', 'PX', String(ttlMs)]);
      return reply === 'OK' ? id : undefined;
    },
    async release(key, lease) {
      await run('releasing the refresh lease', ['EVAL', RELEASE, '1', leaseKey(key), lease]);
    },
  };
}
