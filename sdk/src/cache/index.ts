export { createHttpCache, type HttpCacheOptions } from './http-cache.js';
export { createMemoryCacheStore, type MemoryCacheStore, type MemoryCacheStoreOptions } from './memory-cache-store.js';
export type { CacheEntry, CacheStore, HttpCache } from './types.js';
export { conditionalHeaders, isStorable, revalidated } from './validators.js';
