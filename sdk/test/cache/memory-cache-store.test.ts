import { describe, expect, it } from 'vitest';
import { createMemoryCacheStore } from '../../src/cache/memory-cache-store.js';
import type { CacheEntry } from '../../src/cache/types.js';

const entry = (url: string, body = '{}'): CacheEntry => ({
  url,
  status: 200,
  headers: { etag: '"1"' },
  body,
  storedAt: 0,
});

describe('createMemoryCacheStore', () => {
  it('evicts the least recently used entry beyond maxEntries', async () => {
    const store = createMemoryCacheStore({ maxEntries: 2 });
    await store.set('a', entry('http://x/a'));
    await store.set('b', entry('http://x/b'));
    await store.get('a'); // a is now more recent than b
    await store.set('c', entry('http://x/c'));
    expect(await store.get('b')).toBeUndefined();
    expect((await store.get('a'))?.url).toBe('http://x/a');
    expect((await store.get('c'))?.url).toBe('http://x/c');
    expect(store.size).toBe(2);
  });

  it('evicts the least recently used entries beyond maxBytes, counting UTF-8 bytes', async () => {
    const store = createMemoryCacheStore({ maxBytes: 100 });
    // key 1 + url 10 + etag header 4+3 + body 30 = 48 bytes each
    await store.set('a', entry('http://x/a', 'a'.repeat(30)));
    await store.set('b', entry('http://x/b', 'b'.repeat(30)));
    expect(store.bytes).toBe(96);
    // "é" is 2 bytes in UTF-8 and "😀" 4: 48 bytes again, so a goes
    await store.set('c', entry('http://x/c', 'é'.repeat(13) + '😀'));
    expect(store.bytes).toBe(96);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBeDefined();
    expect(await store.get('c')).toBeDefined();
  });

  it('keeps no entry larger than maxBytes, and a replaced entry stops counting', async () => {
    const store = createMemoryCacheStore({ maxBytes: 100 });
    await store.set('a', entry('http://x/a', 'a'.repeat(30)));
    await store.set('big', entry('http://x/big', 'x'.repeat(200)));
    expect(await store.get('big')).toBeUndefined();
    expect(await store.get('a')).toBeDefined();
    await store.set('a', entry('http://x/a', 'a'.repeat(10)));
    expect(store.bytes).toBe(28);
    await store.delete('a');
    expect(store.bytes).toBe(0);
    expect(store.size).toBe(0);
  });

  it('rejects bounds below one', () => {
    expect(() => createMemoryCacheStore({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => createMemoryCacheStore({ maxBytes: Number.NaN })).toThrow(RangeError);
  });
});
