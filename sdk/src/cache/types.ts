/**
 * The seam between the SDK's transport and its HTTP cache. The transport consults the cache around GETs
 * (adding `If-None-Match` / `If-Modified-Since`, answering a 304 from the stored copy) and tells it which
 * URLs an unsafe request touched.
 */

/** A stored GET response. */
export interface CacheEntry {
  /** Absolute URL the response was fetched from. */
  url: string;
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The body as text. */
  body: string;
  /** Epoch ms when stored, or when a revalidation last changed its headers (beyond `Date`). */
  storedAt: number;
}

/**
 * Pluggable storage for cache entries (the default is an in-memory LRU bounded by entries and bytes).
 * Implement it over Redis, IndexedDB or anything async. Keys are opaque strings built by the cache (the
 * owner, then the URL); values are plain JSON-safe objects. The cache never lists keys: writes find the entries
 * they invalidate through an in-memory index, so a store only needs these three calls. Bound its size yourself
 * (a TTL or the backend's own eviction): an entry that disappears is simply fetched again.
 *
 * @example Redis (node-redis v4), shared by several processes; every entry expires after a day
 * ```ts
 * const store: CacheStore = {
 *   async get(key) {
 *     const text = await redis.get(`sf:${key}`);
 *     return text === null ? undefined : JSON.parse(text);
 *   },
 *   async set(key, entry) {
 *     await redis.set(`sf:${key}`, JSON.stringify(entry), { EX: 86_400 });
 *   },
 *   async delete(key) {
 *     await redis.del(`sf:${key}`);
 *   },
 * };
 * const client = createClient({ baseUrl, auth, cache: createHttpCache({ store }) });
 * ```
 *
 * @example IndexedDB in a browser, with the `idb-keyval` package
 * ```ts
 * import { createStore, del, get, set } from 'idb-keyval';
 * const db = createStore('storefront-cache', 'entries');
 * const store: CacheStore = {
 *   get: (key) => get(key, db),
 *   set: (key, entry) => set(key, entry, db),
 *   delete: (key) => del(key, db),
 * };
 * ```
 */
export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  delete(key: string): Promise<void>;
}

/** What the transport needs from the HTTP cache. `owner` partitions entries per token owner. */
export interface HttpCache {
  /** The stored response for a GET of `url` by `owner`, if any. */
  get(owner: string, url: string): Promise<CacheEntry | undefined>;
  /** Stores a 200 GET response that carries validators (`ETag` and/or `Last-Modified`). */
  put(owner: string, entry: CacheEntry): Promise<void>;
  /** Drops what an unsafe request touched: the URLs given and the collections above them. */
  invalidate(owner: string, urls: readonly string[]): Promise<void>;
  /**
   * Subscribes to failures of the cache's store, which the cache survives (a read becomes a miss, a write is
   * skipped); returns the function that unsubscribes. A client reports them as `cache:error` events.
   */
  onStoreError?(listener: (error: unknown) => void): () => void;
}
