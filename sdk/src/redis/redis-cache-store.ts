import type { CacheEntry, CacheStore } from '../cache/types.js';
import { command, type RedisStoreOptions } from './redis-client.js';

/** Options of {@link createRedisCacheStore}. */
export interface RedisCacheStoreOptions extends RedisStoreOptions {
  /** Lifetime of an entry in seconds; it is fetched again in full after that. Default 86 400 (a day). */
  ttl?: number;
  /** Entries larger than this many bytes (JSON) are not stored. Default 1 MiB. Bound the whole with `maxmemory`. */
  maxEntryBytes?: number;
}

/**
 * A `CacheStore` in Redis, shared by every instance of an app: what one instance fetched, the others revalidate
 * with a 304 instead of downloading it. Entries live under `{prefix}:cache:{owner} {url}` (the HTTP cache's keys
 * are per token owner) with a TTL. When Redis fails, `get` and `set` reject, and the HTTP cache falls back to plain
 * requests (reported as `cache:error` events): never a wrong answer.
 *
 * @example
 * const redis = await createRedis({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * const client = createClient({ baseUrl, auth, cache: createHttpCache({ store: createRedisCacheStore({ client: redis }) }) });
 */
export function createRedisCacheStore(options: RedisCacheStoreOptions): CacheStore {
  const prefix = options.prefix ?? 'storefront';
  const timeout = options.commandTimeout ?? 1_000;
  const ttl = String(options.ttl ?? 86_400);
  const maxBytes = options.maxEntryBytes ?? 1024 * 1024;
  const keyOf = (key: string) => `${prefix}:cache:${key}`;
  return {
    async get(key) {
      const stored = await command(options.client, ['GET', keyOf(key)], timeout);
      return stored === null || stored === undefined ? undefined : (JSON.parse(String(stored)) as CacheEntry);
    },
    async set(key, entry) {
      const text = JSON.stringify(entry);
      // Length in UTF-16 units bounds the bytes from below; the exact count only matters near the limit.
      if (text.length > maxBytes || new TextEncoder().encode(text).length > maxBytes) {
        await command(options.client, ['DEL', keyOf(key)], timeout);
        return;
      }
      await command(options.client, ['SET', keyOf(key), text, 'EX', ttl], timeout);
    },
    async delete(key) {
      await command(options.client, ['DEL', keyOf(key)], timeout);
    },
  };
}
