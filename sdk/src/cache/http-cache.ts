import { cacheKey, normaliseUrl } from './cache-key.js';
import { entryTags, touchedTags } from './invalidation-tags.js';
import { createMemoryCacheStore } from './memory-cache-store.js';
import { TagIndex } from './tag-index.js';
import type { CacheEntry, CacheStore, HttpCache } from './types.js';
import { isStorable, strongEtag } from './validators.js';

/** Options of {@link createHttpCache}. */
export interface HttpCacheOptions {
  /** Where entries live. Default: a {@link createMemoryCacheStore} bounded by `maxEntries` and `maxBytes`. */
  store?: CacheStore;
  /**
   * Most entries this cache keeps track of (default 500). Beyond it the least recently used entry is deleted from
   * the store, whichever store it is, because writes find entries through an in-memory index of this size.
   */
  maxEntries?: number;
  /** Most bytes the default in-memory store holds (default 5 MiB). Other stores bound their own size. */
  maxBytes?: number;
  /**
   * Called when the store fails (Redis down, a quota exceeded). The cache then carries on without it: a failed
   * read is a miss, so the request goes out in full; a failed write or delete is skipped. Since every stored
   * response is revalidated before use, a copy that a failed delete left behind is never served as current.
   * Default: failures are ignored.
   */
  onError?: (error: unknown) => void;
}

/** `store`, with each failure (a rejection or a throw) reported to `onError` and made a miss or a skipped write. */
function tolerant(store: CacheStore, onError: (error: unknown) => void): CacheStore {
  // Every failure is a miss or a skipped write: each call resolves `undefined` then.
  const guard = <T>(call: () => Promise<T>) =>
    Promise.resolve()
      .then(call)
      .catch((error: unknown) => void onError(error));
  return {
    get: (key) => guard(() => store.get(key)),
    set: (key, entry) => guard(() => store.set(key, entry)),
    delete: (key) => guard(() => store.delete(key)),
  };
}

/**
 * The SDK's HTTP cache: stores 200 GET responses that carry validators, per token owner, and drops what a write
 * touched (the resource, the collections above it, the documents that show it).
 *
 * Every stored response is revalidated by the transport (the API sends `max-age=0, must-revalidate`), so the cache
 * saves bodies, not round trips: a 304 costs headers only. Invalidation makes the next read of what a write touched
 * unconditional (a full 200), so that a change is seen even from a server whose validators would not move, and
 * frees space early. A store shared by several clients says how far that reaches the others (the Redis store: for
 * entries without an `ETag`; those with one are left to `If-None-Match`).
 *
 * A GET answered before a write but stored after it may survive that write's invalidation; its next
 * revalidation replaces it, since its `ETag` no longer matches.
 */
export function createHttpCache(options: HttpCacheOptions = {}): HttpCache {
  const maxEntries = options.maxEntries ?? 500;
  const errorListeners = new Set<(error: unknown) => void>();
  if (options.onError) errorListeners.add(options.onError);
  const store = tolerant(
    options.store ?? createMemoryCacheStore({ maxEntries, maxBytes: options.maxBytes }),
    (error) => {
      for (const listener of errorListeners) listener(error);
    },
  );
  const index = new TagIndex(maxEntries);
  const ownerTag = (owner: string, tag: string) => `${encodeURIComponent(owner)} ${tag}`;

  const track = async (owner: string, key: string, entry: CacheEntry) => {
    // A strong ETag names one representation: after a 304 its tags are known without parsing the body again.
    const version = strongEtag(entry);
    if (version !== undefined && index.version(key) === version) return index.touch(key);
    const tags = entryTags(entry.url, entry.body, entry.headers['content-type']).map((tag) => ownerTag(owner, tag));
    await Promise.all(index.add(key, tags, version).map((evicted) => store.delete(evicted)));
  };

  return {
    onStoreError(listener) {
      errorListeners.add(listener);
      return () => errorListeners.delete(listener);
    },
    async get(owner, url) {
      const key = cacheKey(owner, url);
      const entry = await store.get(key);
      if (entry === undefined) index.remove(key);
      else if (index.has(key)) index.touch(key);
      // Stored by an earlier process (a persistent store): index it so that writes can find it.
      else await track(owner, key, entry);
      return entry;
    },
    async put(owner, entry) {
      const key = cacheKey(owner, entry.url);
      if (!isStorable(entry.status, entry.headers)) {
        // The resource now says it must not be (or cannot be) revalidated: the older copy is obsolete.
        index.remove(key);
        await store.delete(key);
        return;
      }
      const stored = { ...entry, url: normaliseUrl(entry.url) };
      await store.set(key, stored);
      await track(owner, key, stored);
    },
    async invalidate(owner, urls) {
      const keys = new Set(index.take(urls.flatMap((url) => touchedTags(url).map((tag) => ownerTag(owner, tag)))));
      // The written URLs themselves go even when the index lost track of them.
      for (const url of urls) keys.add(cacheKey(owner, url));
      for (const key of keys) index.remove(key);
      await Promise.all([...keys].map((key) => store.delete(key)));
    },
  };
}
