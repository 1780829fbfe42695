import { Lru } from '../shared/lru.js';

/**
 * Where `createWebhookHandler` remembers the `webhook-id`s it has taken on, so that a delivery repeated (at least
 * once: a sender that died mid-attempt, an answer lost on the way) is acknowledged without running the handler
 * again. One store shared by every process of an app dedupes across them: `createRedisDedupeStore` in
 * `@storefront-platform/sdk/redis`.
 */
export interface DedupeStore {
  /**
   * Takes `id` for `ttlMs` milliseconds: true when nobody held it (the caller handles the delivery), false when
   * it is taken. Must be atomic across the processes that share the store.
   */
  claim(id: string, ttlMs: number): Promise<boolean>;
  /** Gives `id` up again, after its handler failed, so that the sender's retry is handled. */
  release?(id: string): Promise<void>;
}

/** Options of {@link createMemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /** Most ids remembered; the least recently claimed go first. Default 10 000. */
  maxEntries?: number;
  /** The clock claims expire on, in epoch ms. Default `Date.now`. */
  now?: () => number;
}

/** A {@link DedupeStore} in this process's memory, bounded: the default of `createWebhookHandler`. */
export function createMemoryDedupeStore({
  maxEntries = 10_000,
  now = Date.now,
}: MemoryDedupeStoreOptions = {}): DedupeStore {
  // id → when its claim expires.
  const claims = new Lru<string, number>({ maxEntries });
  return {
    async claim(id, ttlMs) {
      const expires = claims.peek(id);
      if (expires !== undefined && expires > now()) return false;
      claims.set(id, now() + ttlMs);
      return true;
    },
    async release(id) {
      claims.delete(id);
    },
  };
}
