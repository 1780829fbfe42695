import { createClient, Results } from '@storefront-platform/sdk';
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
