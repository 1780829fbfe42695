/**
 * Walks over a list's `next` links (keyset paging, `after` cursors): what they yield while products are created
 * and deleted under them, in every order of every list, and how a bad cursor is answered.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startChurn } from '../../../test/support/product-churn.js';
import type { ProductRow } from '../../src/store/types.js';
import { clientToken, useTestServer } from '../helpers/test-server.js';
import type { Doc } from '../themes/fixture.js';

const server = useTestServer({ products: 600 });
let token: string;
beforeAll(async () => {
  token = await clientToken(server());
});

async function call(url: string): Promise<Response> {
  const target = url.startsWith('http') ? url : `${server().baseUrl}${url}`;
  return fetch(target, { headers: { authorization: `Bearer ${token}` } });
}

async function json(url: string): Promise<Doc> {
  const response = await call(url);
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Doc;
}

/** The ids of every item from `url` on, following `next` (as `nextOf` reads it) until there is none. */
async function walk(
  url: string,
  onPage: () => void | Promise<void> = () => {},
  nextOf: (page: Doc) => string | undefined = (page) => page._links.next?.href,
): Promise<string[]> {
  const ids: string[] = [];
  let href: string | undefined = url;
  while (href) {
    const page = await json(href);
    ids.push(...(page._embedded.items as Doc[]).map((item) => item.id as string));
    await onPage();
    href = nextOf(page);
  }
  return ids;
}

/** A walk by offsets: `next` without its cursor, as the server linked pages before cursors. */
const byOffset = (page: Doc) => {
  const href = page._links.next?.href as string | undefined;
  if (!href) return undefined;
  const url = new URL(href);
  url.searchParams.delete('after');
  return url.href;
};

/** What the demo admin sees of the products: all of shops 1 and 2, the visible ones of shop 3. */
const listed = (row: ProductRow) => row.shop_id !== '3' || row.status === 'visible';

const PRODUCT_SORTS = [
  'updated_on.desc',
  'updated_on.asc',
  'created_on.desc',
  'created_on.asc',
  'title.asc',
  'title.desc',
  'price.asc',
  'price.desc',
];

describe('a walk over next while 200 products are created and 200 deleted', () => {
  it.each(PRODUCT_SORTS.map((sort, i) => [sort, i]))(
    'by %s: no duplicate, none missed that existed throughout, in order',
    async (sort, seed) => {
      const churn = startChurn(server().store, listed, { seed: Number(seed) });
      const ids = await walk(`/products.json?sort=${sort}&per_page=20`, churn.page);
      // Most writes landed while the walk ran, not after it.
      expect(churn.written).toBeGreaterThan(300);
      await churn.finish();
      churn.check(ids, String(sort));
    },
  );

  it('gives the default order (updated_on.desc) when the walk names none', async () => {
    const churn = startChurn(server().store, listed, { seed: 100 });
    const ids = await walk('/products.json?per_page=20', churn.page);
    await churn.finish();
    churn.check(ids, 'updated_on.desc');
  });

  it.each(['updated_on.desc', 'created_on.asc'])(
    'by %s, went wrong by offsets (what cursors fix): the churn does shift rows',
    async (sort) => {
      const churn = startChurn(server().store, listed, { seed: 200 });
      const ids = await walk(`/products.json?sort=${sort}&per_page=20`, churn.page, byOffset);
      await churn.finish();
      expect(() => churn.check(ids, sort)).toThrow(/duplicates|missed/);
    },
  );
});

describe('a walk over next on a list nobody changes', () => {
  const cases = [
    ...PRODUCT_SORTS.map((sort) => `/products.json?sort=${sort}`),
    ...['updated_on.desc', 'updated_on.asc', 'created_on.desc', 'created_on.asc', 'total.asc', 'total.desc'].map(
      (sort) => `/orders.json?sort=${sort}`,
    ),
    '/orders.json?status=paid',
    '/shops.json',
  ];
  const paged = (url: string, perPage: number) => `${url}${url.includes('?') ? '&' : '?'}per_page=${perPage}`;
  it.each(cases)('%s: by cursors of 7, the same as by offsets of 100', async (url) => {
    const byCursor = await walk(paged(url, 7));
    const byPages = await walk(paged(url, 100), undefined, byOffset);
    expect(byCursor.length).toBeGreaterThan(1);
    expect(byCursor).toEqual(byPages);
  });

  it('counts the pages of the walk in page, and keeps the other links offset pages', async () => {
    const first = await json('/products.json?sort=price.asc&per_page=5');
    const second = await json(first._links.next.href);
    const after = new URL(first._links.next.href).searchParams.get('after');
    expect(second).toMatchObject({ page: 2, per_page: 5, total_items: first.total_items });
    expect(second._links.self.href).toBe(first._links.next.href);
    expect(second._links.prev.href).toBe(`${server().baseUrl}/products.json?sort=price.asc&page=1&per_page=5`);
    expect(second._links.first.href).toBe(first._links.first.href);
    expect(second._links.last.href).toBe(first._links.last.href);
    expect(second._links.next.href).not.toContain(`after=${after}`);
    expect(second._embedded.items).toEqual(
      (await json('/products.json?sort=price.asc&per_page=5&page=2'))._embedded.items,
    );
  });

  it('goes on after a product deleted since its cursor was written', async () => {
    const first = await json('/products.json?sort=created_on.asc&per_page=3');
    const [, , last] = first._embedded.items as Doc[];
    await server().store.write((tx) => tx.delete('products', last!.id));
    const second = await json(first._links.next.href);
    const now = await walk('/products.json?sort=created_on.asc&per_page=100', undefined, byOffset);
    expect(second._embedded.items.map((item: Doc) => item.id)).toEqual(now.slice(2, 5));
  });
});

describe('a bad cursor', () => {
  const garbage = (text: string) => Buffer.from(text).toString('base64url');
  it.each([
    ['not base64', 'not*base64!'],
    ['empty', ''],
    ['not JSON', garbage('hello')],
    ['not a triple', garbage('["created_on","2026-01-01T00:00:00.000Z"]')],
    ['another order', garbage('["title","a","1"]')],
    ['a number for a date', garbage('["created_on",5,"1"]')],
    ['no id', garbage('["created_on","2026-01-01T00:00:00.000Z",""]')],
    ['an id not a string', garbage('["created_on","2026-01-01T00:00:00.000Z",1]')],
    ['too long', garbage(`["created_on","${'x'.repeat(2000)}","1"]`)],
    ['invalid UTF-8', Buffer.from([0x5b, 0xff, 0x5d]).toString('base64url')],
  ])('%s: 400 with the error body', async (_, cursor) => {
    const response = await call(`/products.json?sort=created_on.asc&after=${encodeURIComponent(cursor)}`);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toEqual({
      _class: ['errors'],
      message: expect.stringContaining('after'),
      request_id: response.headers.get('x-request-id'),
    });
  });

  it('altered or cut short, or from another sort or list: 400', async () => {
    const first = await json('/products.json?sort=created_on.asc&per_page=2');
    const next = new URL(first._links.next.href);
    const cursor = next.searchParams.get('after')!;
    const send = async (changes: Record<string, string>, path = '/products.json') => {
      const url = new URL(next.href.replace('/products.json', path));
      for (const [name, value] of Object.entries(changes)) url.searchParams.set(name, value);
      return (await call(url.href)).status;
    };
    expect(await send({})).toBe(200);
    expect(await send({ after: `X${cursor.slice(1)}` })).toBe(400);
    expect(await send({ after: cursor.slice(0, -3) })).toBe(400);
    expect(await send({ sort: 'title.asc' })).toBe(400);
    expect(await send({ sort: 'price.asc' })).toBe(400);
    expect(await send({ sort: 'total.asc' }, '/orders.json')).toBe(400);
    expect(await send({ sort: 'created_on.asc' }, '/shops.json')).toBe(400);
    // The order's direction may change: a cursor names a place, the walk turns round there.
    expect(await send({ sort: 'created_on.desc' })).toBe(200);
    const twice = `${next.href}&after=${cursor}`;
    expect((await call(twice)).status).toBe(400);
  });
});
