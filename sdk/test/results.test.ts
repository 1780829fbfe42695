import { createClient, PageLoopError, Results } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { fakeFetch } from './helpers/fake-fetch.js';

const base = 'http://api.test/v1/';

/** Three pages of two items, linked with unprefixed, relative `next`/`last`; item ids alternate number/string. */
function page(n: number) {
  const links: Record<string, { href: string }> = { self: { href: `list?page=${n}` }, last: { href: 'list?page=3' } };
  if (n < 3) links.next = { href: `list?page=${n + 1}` };
  return {
    _class: ['results', 'product'],
    total_items: 6,
    page: n,
    per_page: 2,
    _links: links,
    _embedded: {
      items: [2 * n - 1, 2 * n].map((id) => ({
        _class: ['product'],
        id: id % 2 ? id : String(id),
        _links: { self: { href: `products/${id}` } },
      })),
    },
  };
}

function setup() {
  const api = fakeFetch({
    [`GET ${base}`]: { _class: ['root'], _links: { 'svc:all_products': { href: 'list?page=1' } } },
    'GET http://api.test/v1/list?page=1': page(1),
    'GET http://api.test/v1/list?page=2': page(2),
    'GET http://api.test/v1/list?page=3': page(3),
    'GET http://api.test/v1/products/1': { _class: ['product'], id: 1, title: 'The first', _links: {} },
  });
  const client = createClient({ baseUrl: base, fetch: api.fetch });
  const first = async () => (await client.root()).follow('svc:all_products');
  return { api, first };
}

describe('results', () => {
  it('walks every item of every page through next', async () => {
    const { first } = setup();
    const list = await first();
    expect(list).toBeInstanceOf(Results);
    const ids: unknown[] = [];
    for await (const item of list.items()) ids.push(item.properties.id);
    expect(ids).toEqual([1, '2', 3, '4', 5, '6']);
  });

  it('walks pages, the first being the entity itself', async () => {
    const { first } = setup();
    const list = await first();
    const numbers: number[] = [];
    for await (const p of list.pages()) numbers.push(p.properties.page);
    expect(numbers).toEqual([1, 2, 3]);
    expect(list.pageItems).toHaveLength(2);
    expect(list.can('last')).toBe(true);
  });

  it('takes the first n items fetching no more pages than needed', async () => {
    const { first, api } = setup();
    const list = await first();
    const before = api.requests.length;
    const taken = await list.take(3);
    expect(taken.map((item) => item.properties.id)).toEqual([1, '2', 3]);
    expect(api.requests.length - before).toBe(1);
    await expect(list.take(0)).resolves.toEqual([]);
  });

  it('follows an item to its detail through self', async () => {
    const { first, api } = setup();
    const [item] = await (await first()).take(1);
    const detail = await item!.follow('self');
    expect(api.requests.at(-1)?.url).toBe('http://api.test/v1/products/1');
    expect(detail.properties).toMatchObject({ id: 1, title: 'The first' });
  });

  it('stops the walk when the signal aborts', async () => {
    const { first, api } = setup();
    const list = await first();
    const controller = new AbortController();
    const ids: unknown[] = [];
    const walk = (async () => {
      for await (const item of list.items({ signal: controller.signal })) {
        ids.push(item.properties.id);
        if (ids.length === 3) controller.abort(new Error('enough'));
      }
    })();
    await expect(walk).rejects.toThrow('enough');
    expect(ids).toEqual([1, '2', 3]);
    expect(api.requests.map((r) => r.url)).not.toContain('http://api.test/v1/list?page=3');
  });
});

describe('a walk over next links that loop', () => {
  /** A page of `ids` at `url`, whose `next` is `next` (relative to the API root); no `self` when `self` is false. */
  const looping = (ids: number[], next: string, self = true) => ({
    _class: ['results', 'product'],
    total_items: ids.length,
    page: 1,
    per_page: 2,
    _links: { ...(self && { self: { href: 'loop' } }), next: { href: next } },
    _embedded: { items: ids.map((id) => ({ _class: ['product'], id, _links: { self: { href: `products/${id}` } } })) },
  });

  async function walk(routes: Record<string, object>) {
    const api = fakeFetch({
      [`GET ${base}`]: { _class: ['root'], _links: { 'svc:all_products': { href: 'loop' } } },
      ...routes,
    });
    const list = await (await createClient({ baseUrl: base, fetch: api.fetch }).root()).follow('svc:all_products');
    const ids: unknown[] = [];
    const failure = await (async () => {
      for await (const item of list.items()) ids.push(item.properties.id);
    })().catch((error: unknown) => error);
    return { ids, failure, requests: api.requests.length };
  }

  it('a page linking itself: its items once, then a PageLoopError naming the URL, no request again', async () => {
    const { ids, failure, requests } = await walk({ [`GET ${base}loop`]: looping([1, 2], 'loop') });
    expect(ids).toEqual([1, 2]);
    expect(failure).toBeInstanceOf(PageLoopError);
    expect(failure).toMatchObject({ code: 'PAGE_LOOP', url: `${base}loop` });
    expect(requests).toBe(2);
  });

  it('an empty page without self linking itself: one request of it again at most, then a PageLoopError', async () => {
    const { ids, failure, requests } = await walk({ [`GET ${base}loop`]: looping([], 'loop', false) });
    expect(ids).toEqual([]);
    expect(failure).toBeInstanceOf(PageLoopError);
    expect(requests).toBeLessThanOrEqual(3);
  });

  it('two pages linking each other: each read once, then a PageLoopError', async () => {
    const { ids, failure, requests } = await walk({
      [`GET ${base}loop`]: looping([1], 'other'),
      [`GET ${base}other`]: { ...looping([2], 'loop'), _links: { self: { href: 'other' }, next: { href: 'loop' } } },
    });
    expect(ids).toEqual([1, 2]);
    expect(failure).toBeInstanceOf(PageLoopError);
    expect(requests).toBe(3);
  });
});
