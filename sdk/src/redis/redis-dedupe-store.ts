import type { DedupeStore } from '../webhooks/dedupe-store.js';
import type { RedisStoreOptions } from './redis-client.js';
import { redisStore } from './redis-commands.js';

/**
 * A webhook {@link DedupeStore} in Redis, shared by every process of an app: a delivery repeated to another
 * process than the first is still handled once. A claim is a key `{prefix}:webhook:{id}` set with `NX` and an
 * expiry in one command, so two processes never both take it. A Redis failure rejects, and the handler answers
 * 500 so that the sender retries. A `client` that is no `RedisClient` throws a `TypeError` at once.
 *
 * @example
 * const handler = createWebhookHandler({ secrets, on, dedupe: createRedisDedupeStore({ client: redis }) });
 */
export function createRedisDedupeStore(options: RedisStoreOptions): DedupeStore {
  const store = redisStore(options);
  const key = (id: string) => store.key('webhook', id);
  return {
    async claim(id, ttlMs) {
      return (await store.run(['SET', key(id), '1', 'NX', 'PX', String(Math.ceil(ttlMs))])) === 'OK';
    },
    async release(id) {
      await store.run(['DEL', key(id)]);
    },
  };
}
