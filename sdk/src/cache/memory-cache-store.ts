import { Lru } from '../shared/lru.js';
import { utf8Length } from '../shared/utf8-length.js';
import type { CacheEntry, CacheStore } from './types.js';

/** Bounds of {@link createMemoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /** Most entries kept; the least recently used go first. Default 500. */
  maxEntries?: number;
  /** Most bytes kept (UTF-8 size of key, URL, headers and body); the least recently used go first. Default 5 MiB. */
  maxBytes?: number;
}

/** A {@link CacheStore} that also reports what it holds (for tests, metrics and benchmarks). */
export interface MemoryCacheStore extends CacheStore {
  /** Entries held. */
  readonly size: number;
  /** Bytes held, as counted against `maxBytes`. */
  readonly bytes: number;
}

function sizeOf(key: string, entry: CacheEntry): number {
  let bytes = utf8Length(key) + utf8Length(entry.url) + utf8Length(entry.body);
  for (const [name, value] of Object.entries(entry.headers)) bytes += utf8Length(name) + utf8Length(value);
  return bytes;
}

/**
 * The default cache store: in memory, least recently used first out, bounded by entries and by bytes.
 * An entry larger than `maxBytes` on its own is not kept.
 */
export function createMemoryCacheStore(options: MemoryCacheStoreOptions = {}): MemoryCacheStore {
  const maxEntries = options.maxEntries ?? 500;
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  if (!(maxEntries >= 1) || !(maxBytes >= 1))
    throw new RangeError('createMemoryCacheStore: maxEntries and maxBytes must be ≥ 1');
  const entries = new Lru<string, CacheEntry>({ maxEntries, maxWeight: maxBytes, weigh: sizeOf });

  return {
    get size() {
      return entries.size;
    },
    get bytes() {
      return entries.weight;
    },
    async get(key) {
      return entries.get(key);
    },
    async set(key, entry) {
      entries.set(key, entry);
    },
    async delete(key) {
      entries.delete(key);
    },
  };
}
