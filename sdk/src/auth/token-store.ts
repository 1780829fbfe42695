/**
 * Where the current token of an authorization lives. The default keeps it in this process; a shared store
 * (Redis: `@storefront-platform/sdk/redis`) lets every instance of an app act on one authorization: a refresh anywhere is
 * seen everywhere, and only the holder of the lease exchanges a token, since the server accepts one exchange
 * per token and revokes the one it replaces.
 */
import type { TokenInfo } from './types.js';

/**
 * Storage of tokens and refresh leases, keyed by authorization (the strategy's owner). Implementations must make
 * `compareAndSet` and `acquire` atomic across every process that shares the store. Methods reject with a
 * `TokenStoreError` when the store cannot be reached.
 */
export interface TokenStore {
  /** The current token of `key`, or `undefined` when none was stored. */
  get(key: string): Promise<TokenInfo | undefined>;
  /**
   * Stores `next` as the token of `key` if the stored token is still `expected` (an access token; `undefined`:
   * none stored). Resolves `true` when stored, `false` when another instance stored a different token first.
   */
  compareAndSet(key: string, expected: string | undefined, next: TokenInfo): Promise<boolean>;
  /**
   * Takes the refresh lease of `key` for `ttlMs` unless another instance holds it. Resolves with a lease id to
   * pass to `release`, or `undefined` when the lease is held. A holder that crashes loses it when `ttlMs` passes.
   */
  acquire(key: string, ttlMs: number): Promise<string | undefined>;
  /** Gives the lease back, if `lease` still holds it. */
  release(key: string, lease: string): Promise<void>;
}

/** Options of the strategies that obtain tokens (client credentials, password, authorized) for sharing them. */
export interface SharedTokenOptions {
  /**
   * Where the current token lives. Default: the strategy's own memory. With a store shared by every instance of
   * the app (`createRedisTokenStore`), they use one token; after a 401 an instance first looks for a token another
   * one already obtained, and only the holder of the refresh lease asks the token endpoint.
   */
  tokenStore?: TokenStore;
  /**
   * How long the refresh lease is held, in ms: the longest one token request may take before another instance
   * tries, so the longest a crashed holder can keep the others waiting. Default 30 000 (the token request's
   * default `timeout`).
   */
  refreshLease?: number;
}

/** A {@link TokenStore} in this process's memory: what every strategy uses unless given another. */
export function createMemoryTokenStore(now: () => number = Date.now): TokenStore {
  const tokens = new Map<string, TokenInfo>();
  const leases = new Map<string, { id: string; until: number }>();
  let next = 0;
  return {
    async get(key) {
      return tokens.get(key);
    },
    async compareAndSet(key, expected, token) {
      if (tokens.get(key)?.accessToken !== expected) return false;
      tokens.set(key, token);
      return true;
    },
    async acquire(key, ttlMs) {
      const held = leases.get(key);
      if (held && held.until > now()) return undefined;
      const id = String(++next);
      leases.set(key, { id, until: now() + ttlMs });
      return id;
    },
    async release(key, lease) {
      if (leases.get(key)?.id === lease) leases.delete(key);
    },
  };
}
