import { Lru } from '../shared/lru.js';
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

/** UTF-8 length without encoding: the store is on the hot path of every cached GET. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      // A surrogate pair is one 4-byte code point.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
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
