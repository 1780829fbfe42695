export { createHttpCache, type HttpCacheOptions } from './http-cache.js';
export { type MemoryStore, type MemoryStoreOptions, memoryStore } from './memory-store.js';
export type { CacheEntry, CacheStore, HttpCache } from './types.js';
export { conditionalHeaders, isStorable, revalidated } from './validators.js';
