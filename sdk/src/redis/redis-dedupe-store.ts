import type { DedupeStore } from '../webhooks/dedupe-store.js';
import type { RedisStoreOptions } from './redis-client.js';
import { command, commandsOf } from './redis-commands.js';

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
  const prefix = options.prefix ?? 'storefront';
  const timeout = options.commandTimeout ?? 1_000;
  const send = commandsOf(options.client);
  const key = (id: string) => `${prefix}:webhook:${id}`;
  return {
    async claim(id, ttlMs) {
      return (await command(send, ['SET', key(id), '1', 'NX', 'PX', String(Math.ceil(ttlMs))], timeout)) === 'OK';
    },
    async release(id) {
      await command(send, ['DEL', key(id)], timeout);
    },
  };
}
