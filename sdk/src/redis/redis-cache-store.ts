import type { CacheEntry, CacheStore } from '../cache/types.js';
import { strongEtag } from '../cache/validators.js';
import { Lru } from '../shared/lru.js';
import { utf8Length } from '../shared/utf8-length.js';
import type { RedisClient, RedisStoreOptions } from './redis-client.js';
import { redisStore } from './redis-commands.js';

/** Options of {@link createRedisCacheStore}. */
export interface RedisCacheStoreOptions extends RedisStoreOptions {
  /**
   * Lifetime of an entry in Redis, in seconds (default 86 400, a day): another instance then fetches it in full. A
   * copy this process holds in memory with an `ETag` is revalidated, not fetched again.
   */
  ttl?: number;
  /** Entries larger than this many bytes (JSON) are not stored. Default 1 MiB. Bound the whole with `maxmemory`. */
  maxEntryBytes?: number;
  /**
   * Entries this process also keeps in memory (default 500; 0 turns it off). A read of one that has an `ETag` asks
   * Redis nothing; a read of one dated only by `Last-Modified` fetches only its version from Redis, and the body
   * only when another instance stored a new one.
   */
  localEntries?: number;
  /** Most bytes (JSON, UTF-16 units) of the entries kept in memory, all together. Default 32 MiB. */
  localBytes?: number;
}

/**
 * Stores the version and the entry of KEYS[1] together, with a TTL: one round trip, never half written.
 *
 * A key holds a hash: `v`, the entry's version, and `e`, the entry as JSON. The version is the entry's strong ETag
 * (one representation, byte for byte, whichever instance stored it) or, without one (a weak ETag, `Last-Modified`
 * only), a token unique to this write. Earlier releases wrote '' there instead, meaning "no version", in the same
 * layout: during a rolling deploy, the new instances read such an entry whole each time, and the earlier ones take a
 * token for a version like any other (they compare it with what they hold, and fetch the entry when it differs).
 */
const SET = `
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'e', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1`;

/**
 * Reads KEYS[1] in one round trip, atomically: nil when absent, {version} when it is ARGV[1] (the version this
 * process holds, '' for none), else {version, entry}.
 */
const GET = `
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return nil end
if v ~= '' and v == ARGV[1] then return {v} end
local e = redis.call('HGET', KEYS[1], 'e')
if not e then return nil end
return {v, e}`;

/**
 * A `CacheStore` in Redis, shared by every instance of an app: what one instance fetched, the others revalidate
 * with a 304 instead of downloading it. Entries live under `{prefix}:cache:{owner} {url}` (the HTTP cache's keys
 * are per token owner) with a TTL, and this process keeps recent ones in memory (`localEntries`, `localBytes`).
 *
 * A read of an entry held here that has an `ETag` sends Redis nothing: the client revalidates it with
 * `If-None-Match`, and a 304 to that proves the copy current (or, for a weak tag, equivalent: RFC 9110 §13.1.2) whatever another instance wrote or
 * deleted since; when it changed, the 200 brings it and is written to Redis. What is lost is the download saved
 * when another instance already fetched the change. An entry dated only by `Last-Modified` (one-second granularity:
 * a change within the second of the copy would be answered 304) is checked against Redis on every read instead, one
 * round trip that moves only its version unless another instance stored a new one or deleted it, so that another
 * instance's write still makes the next read a full one. Entries not held here come from Redis whole. `set` and
 * `delete` always reach Redis.
 *
 * When Redis fails, `get` (of an entry it must ask for), `set` and `delete` reject, and the HTTP cache falls back to
 * plain requests (reported as `cache:error` events): never a wrong answer. A `client` that is no
 * {@link RedisClient} throws a `TypeError` at once.
 *
 * @example
 * const redis = await createRedis({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * const client = createClient({ baseUrl, auth, cache: createHttpCache({ store: createRedisCacheStore({ client: redis }) }) });
 */
export function createRedisCacheStore(options: RedisCacheStoreOptions): CacheStore {
  const store = redisStore(options);
  const ttl = String(options.ttl ?? 86_400);
  const maxBytes = options.maxEntryBytes ?? 1024 * 1024;
  const maxLocal = options.localEntries ?? 500;
  // Bounded by weight too: 500 entries of up to `maxEntryBytes` each would otherwise hold 500 MiB.
  const local = new Lru<string, { version: string; entry: CacheEntry; size: number }>({
    maxEntries: maxLocal,
    maxWeight: options.localBytes ?? 32 * 1024 * 1024,
    weigh: (_, held) => held.size,
  });
  const keyOf = (key: string) => store.key('cache', key);
  const run = (...args: string[]) => store.run(args);
  // A strong ETag is quoted, a token never is; the instance part keeps tokens of instances apart.
  const instance = Math.random().toString(36).slice(2);
  let writes = 0;
  const versionOf = (entry: CacheEntry) => strongEtag(entry) ?? `~${instance}.${++writes}`;

  return {
    async get(key) {
      const known = local.get(key);
      // The client sends its ETag in `If-None-Match`: the server, not Redis, says whether it is current.
      if (known?.entry.headers.etag !== undefined) return known.entry;
      const reply = await run('EVAL', GET, '1', keyOf(key), known?.version ?? '');
      if (!Array.isArray(reply) || reply.length === 0) {
        local.delete(key);
        return undefined;
      }
      const version = String(reply[0]);
      // Only the version came back: the script found it equal to the one held here, so `known` is set.
      if (reply.length === 1) return known!.entry;
      const text = String(reply[1]);
      const entry = JSON.parse(text) as CacheEntry;
      if (version === '') local.delete(key);
      else local.set(key, { version, entry, size: text.length });
      return entry;
    },
    async set(key, entry) {
      const text = JSON.stringify(entry);
      local.delete(key);
      // UTF-16 units bound the UTF-8 bytes from below and, tripled, from above: counting is needed only between.
      if (text.length > maxBytes || (text.length * 3 > maxBytes && utf8Length(text) > maxBytes)) {
        await run('DEL', keyOf(key));
        return;
      }
      const version = versionOf(entry);
      await run('EVAL', SET, '1', keyOf(key), version, text, ttl);
      local.set(key, { version, entry, size: text.length });
    },
    async delete(key) {
      local.delete(key);
      await run('DEL', keyOf(key));
    },
  };
}
