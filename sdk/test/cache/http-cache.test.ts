import { describe, expect, it } from 'vitest';
import { createHttpCache } from '../../src/cache/http-cache.js';
import type { CacheEntry, CacheStore } from '../../src/cache/types.js';

const API = 'https://api.test/v1';

function hal(self: string, embedded: string[] = []): string {
  return JSON.stringify({
    _links: { self: { href: self } },
    _embedded: { items: embedded.map((href) => ({ _links: { self: { href } } })) },
  });
}

function entry(url: string, body = '{}', headers: Record<string, string> = {}): CacheEntry {
  return {
    url,
    status: 200,
    headers: { etag: '"v1"', 'content-type': 'application/json; charset=utf-8', ...headers },
    body,
    storedAt: 1,
  };
}

/** A Map behind the async interface, as Redis would be, counting calls. */
function mapStore() {
  const map = new Map<string, CacheEntry>();
  const calls = { get: 0, set: 0, delete: 0 };
  const store: CacheStore = {
    async get(key) {
      calls.get++;
      return map.get(key);
    },
    async set(key, value) {
      calls.set++;
      map.set(key, structuredClone(value));
    },
    async delete(key) {
      calls.delete++;
      map.delete(key);
    },
  };
  return { map, calls, store };
}

describe('createHttpCache: what is stored', () => {
  it('stores 200 responses with an ETag or a Last-Modified, and returns them per URL', async () => {
    const cache = createHttpCache();
    await cache.put('u', entry(`${API}/shops/1`));
    await cache.put('u', { ...entry(`${API}/shops/2`), headers: { 'last-modified': 'Sat, 21 Nov 2026 05:00:00 GMT' } });
    expect((await cache.get('u', `${API}/shops/1`))?.headers.etag).toBe('"v1"');
    expect(await cache.get('u', `${API}/shops/2`)).toBeDefined();
    expect(await cache.get('u', `${API}/shops/3`)).toBeUndefined();
  });

  it('normalises the URL of the key (host case, default port, fragment)', async () => {
    const cache = createHttpCache();
    await cache.put('u', entry('https://API.test:443/v1/shops/1#top'));
    expect((await cache.get('u', `${API}/shops/1`))?.url).toBe(`${API}/shops/1`);
  });

  it.each([
    ['a status other than 200', { status: 203 }],
    ['no validator', { headers: { 'content-type': 'application/json' } }],
    ['Cache-Control: no-store', { headers: { etag: '"1"', 'cache-control': 'private, no-store' } }],
    ['Vary: *', { headers: { etag: '"1"', vary: 'Accept-Encoding, *' } }],
  ])('does not store a response with %s, and drops the older copy', async (_, change) => {
    const cache = createHttpCache();
    const url = `${API}/shops/1`;
    await cache.put('u', entry(url));
    await cache.put('u', { ...entry(url), ...change });
    expect(await cache.get('u', url)).toBeUndefined();
  });

  it('stores `private` responses: the cache belongs to one client and is partitioned per owner', async () => {
    const cache = createHttpCache();
    const url = `${API}/shops/1`;
    await cache.put('u', entry(url, '{}', { 'cache-control': 'must-revalidate, private, max-age=0' }));
    expect(await cache.get('u', url)).toBeDefined();
  });

  it('never shares entries between owners, whatever their names', async () => {
    const { store, map } = mapStore();
    const cache = createHttpCache({ store });
    await cache.put('alice', entry(`${API}/shops/1`, 'alice'));
    await cache.put('alice x', entry(`${API}/shops/1`, 'alice x'));
    expect(await cache.get('bob', `${API}/shops/1`)).toBeUndefined();
    expect((await cache.get('alice', `${API}/shops/1`))?.body).toBe('alice');
    expect((await cache.get('alice x', `${API}/shops/1`))?.body).toBe('alice x');
    expect(map.size).toBe(2);
  });
});

describe('createHttpCache: invalidation', () => {
  const theme = `${API}/themes/3`;
  const template = `${theme}/templates/9`;
  const sibling = `${theme}/templates/10`;
  const themeJson = `${API}/shops/7/theme.json`;

  async function themed() {
    const { store, map, calls } = mapStore();
    const cache = createHttpCache({ store });
    await cache.put('u', entry(theme, hal(theme, [template, sibling])));
    await cache.put('u', entry(themeJson, hal(theme, [template, sibling])));
    await cache.put('u', entry(template, hal(template)));
    await cache.put('u', entry(sibling, hal(sibling)));
    await cache.put('u', entry(`${API}/shops/7`, hal(`${API}/shops/7`)));
    await cache.put('other', entry(template, hal(template)));
    return { cache, map, calls };
  }

  it('a template write drops the template, its theme and the shop’s theme.json, not its sibling nor the shop', async () => {
    const { cache } = await themed();
    await cache.invalidate('u', [template]);
    expect(await cache.get('u', template)).toBeUndefined();
    expect(await cache.get('u', theme)).toBeUndefined();
    expect(await cache.get('u', themeJson)).toBeUndefined();
    expect(await cache.get('u', sibling)).toBeDefined();
    expect(await cache.get('u', `${API}/shops/7`)).toBeDefined();
  });

  it('leaves other owners’ entries alone', async () => {
    const { cache } = await themed();
    await cache.invalidate('u', [template]);
    expect(await cache.get('other', template)).toBeDefined();
  });

  it('a template creation (POST to the collection) drops the theme and theme.json', async () => {
    const { cache } = await themed();
    await cache.invalidate('u', [`${theme}/templates`]);
    expect(await cache.get('u', theme)).toBeUndefined();
    expect(await cache.get('u', themeJson)).toBeUndefined();
    expect(await cache.get('u', template)).toBeDefined();
  });

  it('a product write drops the product and every page of the product lists, including the top-level one', async () => {
    const { store } = mapStore();
    const cache = createHttpCache({ store });
    const product = `${API}/shops/7/products/5.json`;
    const lists = [
      `${API}/products.json?shop_ids=7&page=2`,
      `${API}/products.json?q=shoe`,
      `${API}/shops/7/products.json?page=1`,
    ];
    for (const list of lists) await cache.put('u', entry(list, hal(list)));
    await cache.put('u', entry(product, hal(product)));
    await cache.put('u', entry(`${API}/orders.json`, hal(`${API}/orders.json`)));
    await cache.invalidate('u', [`${API}/shops/7/products/5`]);
    for (const list of lists) expect(await cache.get('u', list)).toBeUndefined();
    expect(await cache.get('u', `${API}/orders.json`)).toBeDefined();
    expect(await cache.get('u', product)).toBeUndefined();
  });

  it('drops a list that embeds the written resource even when the list lives elsewhere', async () => {
    const cache = createHttpCache();
    const search = `${API}/search?q=x`;
    await cache.put('u', entry(search, hal(search, ['/v1/shops/7/products/5.json'])));
    await cache.invalidate('u', [`${API}/shops/7/products/5`]);
    expect(await cache.get('u', search)).toBeUndefined();
  });

  it('keeps the tags of a copy refreshed by a 304, and re-reads them when the representation changes', async () => {
    const cache = createHttpCache();
    const other = `${API}/themes/4`;
    await cache.put('u', entry(themeJson, hal(theme)));
    await cache.put('u', { ...entry(themeJson, hal(theme)), storedAt: 2 });
    await cache.invalidate('u', [template]);
    expect(await cache.get('u', themeJson)).toBeUndefined();

    await cache.put('u', entry(themeJson, hal(theme)));
    await cache.put('u', entry(themeJson, hal(other), { etag: '"v2"' }));
    await cache.invalidate('u', [template]);
    expect(await cache.get('u', themeJson)).toBeDefined();
    await cache.invalidate('u', [`${other}/templates/1`]);
    expect(await cache.get('u', themeJson)).toBeUndefined();
  });

  it('finds entries a previous process left in a persistent store', async () => {
    const { store } = mapStore();
    await createHttpCache({ store }).put('u', entry(themeJson, hal(theme)));
    const restarted = createHttpCache({ store });
    expect(await restarted.get('u', themeJson)).toBeDefined();
    await restarted.invalidate('u', [template]);
    expect(await restarted.get('u', themeJson)).toBeUndefined();
  });

  it('deletes from the store what falls out of its bounded index', async () => {
    const { store, map } = mapStore();
    const cache = createHttpCache({ store, maxEntries: 2 });
    await cache.put('u', entry(`${API}/shops/1`));
    await cache.put('u', entry(`${API}/shops/2`));
    await cache.get('u', `${API}/shops/1`);
    await cache.put('u', entry(`${API}/shops/3`));
    expect(map.size).toBe(2);
    expect(await cache.get('u', `${API}/shops/2`)).toBeUndefined();
    expect(await cache.get('u', `${API}/shops/1`)).toBeDefined();
  });

  it('bounds the default store by bytes', async () => {
    const cache = createHttpCache({ maxBytes: 1000 });
    await cache.put('u', entry(`${API}/shops/1`, 'x'.repeat(600)));
    await cache.put('u', entry(`${API}/shops/2`, 'x'.repeat(600)));
    expect(await cache.get('u', `${API}/shops/1`)).toBeUndefined();
    expect(await cache.get('u', `${API}/shops/2`)).toBeDefined();
  });
});
