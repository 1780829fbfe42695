import type { DedupeStore } from '../webhooks/dedupe-store.js';
import type { RedisStoreOptions } from './redis-client.js';
import { redisStore } from './redis-commands.js';

/**
 * Claims KEYS[1] for ARGV[1] ms unless it is held, as `running:{claimant}` (ARGV[2]); replies `claimed`, or the
 * value held (`done`, or a running claim's).
 */
const CLAIM = `
local state = redis.call('GET', KEYS[1])
if state then return state end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[1])
return 'claimed'
`;

/** Deletes KEYS[1] while it holds ARGV[1], a claim: one another call took since is left alone. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * A webhook {@link DedupeStore} in Redis, shared by every process of an app: a delivery repeated to another
 * process than the first is still handled once. A delivery is a key `{prefix}:webhook:{id}`, `running:{claimant}`
 * while its handler runs (claimed by one script, so two processes never both take it; it lapses when its process dies), then
 * `done`. A Redis failure rejects, and the handler answers 500 so that the sender retries. A `client` that is no
 * `RedisClient` throws a `TypeError` at once.
 *
 * @example
 * const handler = createWebhookHandler({ secrets, on, dedupe: createRedisDedupeStore({ client: redis }) });
 */
export function createRedisDedupeStore(options: RedisStoreOptions): DedupeStore {
  const store = redisStore(options);
  const key = (id: string) => store.key('webhook', id);
  const ms = (ttlMs: number) => String(Math.ceil(ttlMs));
  const running = (claimant: string) => `running:${claimant}`;
  return {
    async claim(id, ttlMs, claimant) {
      const reply = await store.run(['EVAL', CLAIM, '1', key(id), ms(ttlMs), running(claimant)]);
      // Whatever else a key may hold is taken as running: the sender retries later, by when the key has lapsed.
      return reply === 'claimed' || reply === 'done' ? reply : 'running';
    },
    async done(id, ttlMs) {
      await store.run(['SET', key(id), 'done', 'PX', ms(ttlMs)]);
    },
    async release(id, claimant) {
      await store.run(['EVAL', RELEASE, '1', key(id), running(claimant)]);
    },
  };
}
