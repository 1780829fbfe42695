import { Lru } from '../shared/lru.js';

/**
 * Where a delivery's `webhook-id` stands in a {@link DedupeStore}: `claimed` by this call (its handler runs now),
 * `running` (another call's handler is still at it), `done` (handled).
 */
export type DedupeState = 'claimed' | 'running' | 'done';

/**
 * Where `createWebhookHandler` remembers the `webhook-id`s it has taken on, so that a delivery repeated (at least
 * once: a sender that died mid-attempt, an answer lost on the way) is acknowledged without running the handler
 * again. An id is claimed for a short time while its handler runs, and remembered for long only once the handler
 * succeeded: a claim whose handler failed, or whose process died, lapses, and the sender's retry is handled. One
 * store shared by every process of an app dedupes across them: `createRedisDedupeStore` in
 * `@storefront-platform/sdk/redis`.
 */
export interface DedupeStore {
  /**
   * Claims `id` for `claimant` (a string unique to the call) for `ttlMs` milliseconds, while its handler runs, when
   * nobody holds it (`claimed`); otherwise says where it stands (`running`, `done`). Must be atomic across the
   * processes that share the store.
   */
  claim(id: string, ttlMs: number, claimant: string): Promise<DedupeState>;
  /** Records `id` as handled, for `ttlMs` milliseconds, whatever its claim had left. */
  done(id: string, ttlMs: number): Promise<void>;
  /**
   * Gives `id` up again, after its handler failed, so that the sender's retry is handled without waiting; only while
   * `claimant` holds it: a claim that lapsed meanwhile and that another call took stays that call's.
   */
  release?(id: string, claimant: string): Promise<void>;
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
  // id → where it stands, until when, and who holds it while it runs.
  const entries = new Lru<string, { state: 'running' | 'done'; expires: number; claimant?: string }>({ maxEntries });
  return {
    async claim(id, ttlMs, claimant) {
      const entry = entries.peek(id);
      if (entry && entry.expires > now()) return entry.state;
      entries.set(id, { state: 'running', expires: now() + ttlMs, claimant });
      return 'claimed';
    },
    async done(id, ttlMs) {
      entries.set(id, { state: 'done', expires: now() + ttlMs });
    },
    async release(id, claimant) {
      if (entries.peek(id)?.claimant === claimant) entries.delete(id);
    },
  };
}
