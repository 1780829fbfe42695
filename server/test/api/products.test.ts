import { beforeAll, describe, expect, it } from 'vitest';
import type { ProductRow } from '../../src/store/types.js';
import { type Doc, useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();
let rows: readonly ProductRow[];
/** What a `public` token sees: visible products of public shops, whoever the user is (wire contract). */
let publicRows: readonly ProductRow[];
beforeAll(() => {
  rows = t.server.store.all('products');
  const publicShops = new Set(
    t.server.store
      .all('shops')
      .filter((shop) => shop.public)
      .map((shop) => shop.id),
  );
  publicRows = rows.filter((r) => r.status === 'visible' && publicShops.has(r.shop_id));
});

const ids = (list: Doc) => (list._embedded.items as Doc[]).map((item) => item.id);
const newestFirst = (a: ProductRow, b: ProductRow) =>
  a.updated_on < b.updated_on ? 1 : a.updated_on > b.updated_on ? -1 : Number(b.id) - Number(a.id);

describe('product list', () => {
  it('shows the demo admin every product of the shops they see, hidden ones of their own shops', async () => {
    const list = await t.json('/products.json?per_page=100', { status: 200 });
    expect(list._class).toEqual(['results', 'product']);
    const expected = rows.filter((r) => r.shop_id !== '3' || r.status === 'visible').sort(newestFirst);
    expect(list.total_items).toBe(expected.length);
    expect(ids(list)).toEqual(expected.map((r) => r.id));
  });

  it('hides hidden products from public tokens, and from admins of other shops', async () => {
    expect(rows.some((r) => r.status === 'hidden' && r.shop_id === '1')).toBe(true);
    const visible = (list: Doc) => (list._embedded.items as Doc[]).every((item) => item.status === 'visible');
    const pub = await t.json('/products?per_page=100', { token: t.publicToken });
    expect(visible(pub)).toBe(true);
    expect(pub.total_items).toBe(publicRows.length);
    expect(publicRows.length).toBeLessThan(rows.filter((r) => r.status === 'visible').length);
    const other = await t.json('/products?per_page=100&shop_ids=1', { token: t.otherAdmin });
    expect(visible(other)).toBe(true);
    const hiddenOnly = await t.json('/products?status=hidden&shop_ids=1', { token: t.publicToken });
    expect(hiddenOnly.total_items).toBe(0);
  });

  it('does not list products of a non-public shop to others', async () => {
    const list = await t.json('/products?shop_ids=2', { token: t.otherAdmin, status: 200 });
    expect(list.total_items).toBe(0);
  });

  it('summarises each product with a self link to its detail', async () => {
    const list = await t.json('/products?per_page=1');
    const [item] = list._embedded.items as Doc[];
    const row = rows.find((r) => r.id === item!.id)!;
    expect(item).toEqual({
      _class: ['product'],
      id: row.id,
      title: row.title,
      slug: row.slug,
      price: row.price,
      status: row.status,
      updated_on: row.updated_on,
      _links: { self: { href: `${t.base}/shops/${row.shop_id}/products/${row.id}.json` } },
    });
  });

  it('filters by shop_ids, status, tags and q together', async () => {
    const tag = rows.find((r) => r.shop_id === '1')!.tags[0]!;
    const list = await t.json(`/products?shop_ids=1,2&status=visible&tags=${tag.toUpperCase()}&per_page=100`);
    const expected = rows
      .filter((r) => ['1', '2'].includes(r.shop_id) && r.status === 'visible' && r.tags.includes(tag))
      .sort(newestFirst);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(list)).toEqual(expected.map((r) => r.id));

    const word = rows[0]!.title.split(' ')[0]!;
    const byQ = await t.json(`/products?q=${encodeURIComponent(word.toLowerCase())}&per_page=100`);
    const matching = rows.filter(
      (r) =>
        (r.shop_id !== '3' || r.status === 'visible') &&
        [r.title, r.vendor, ...r.tags].some((text) => text.toLowerCase().includes(word.toLowerCase())),
    );
    expect(new Set(ids(byQ))).toEqual(new Set(matching.map((r) => r.id)));
  });

  it.each([
    ['price.asc', (a: ProductRow, b: ProductRow) => a.price - b.price || Number(a.id) - Number(b.id)],
    ['price.desc', (a: ProductRow, b: ProductRow) => b.price - a.price || Number(b.id) - Number(a.id)],
    [
      'title.asc',
      (a: ProductRow, b: ProductRow) =>
        a.title.toLowerCase() < b.title.toLowerCase()
          ? -1
          : a.title.toLowerCase() > b.title.toLowerCase()
            ? 1
            : Number(a.id) - Number(b.id),
    ],
    [
      'created_on.asc',
      (a: ProductRow, b: ProductRow) =>
        a.created_on < b.created_on ? -1 : a.created_on > b.created_on ? 1 : Number(a.id) - Number(b.id),
    ],
    ['updated_on.asc', (a: ProductRow, b: ProductRow) => -newestFirst(a, b)],
  ])('sorts by %s', async (sort, compare) => {
    const list = await t.json(`/products?sort=${sort}&per_page=100`, { token: t.publicToken });
    const expected = [...publicRows].sort(compare);
    expect(ids(list)).toEqual(expected.map((r) => r.id));
    expect(list._links.self.href).toBe(`${t.base}/products.json?sort=${sort}&page=1&per_page=100`);
  });

  it('pages through the whole list with next links, each item once', async () => {
    const seen: string[] = [];
    let href: string | undefined = `${t.base}/products.json?per_page=7`;
    let pages = 0;
    while (href) {
      const page: Doc = await t.json(href, { status: 200 });
      seen.push(...ids(page));
      expect(page._links.first.href).toBe(`${t.base}/products.json?page=1&per_page=7`);
      href = page._links.next?.href;
      pages++;
    }
    const total = rows.filter((r) => r.shop_id !== '3' || r.status === 'visible').length;
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 7));
  });

  it.each([
    ['status=deleted'],
    ['sort=price'],
    ['sort=stock.asc'],
    ['per_page=1000'],
    ['page=0'],
    ['shop_ids='],
    ['q=' + 'x'.repeat(201)],
  ])('refuses %s with a 400', async (search) => {
    const response = await t.call(`/products?${search}`);
    expect(response.status).toBe(400);
    expect((await response.json())._class).toEqual(['errors']);
  });

  it('changes its validators when a member is added, changed or removed', async () => {
    const url = '/products?shop_ids=3&per_page=100';
    const etags = [(await t.call(url)).headers.get('etag')];
    const template = rows.find((r) => r.shop_id === '3' && r.status === 'visible')!;
    const added = await t.server.store.write((tx) =>
      tx.insert('products', { ...template, id: undefined, title: 'Brand New Thing', slug: 'brand-new-thing' }),
    );
    etags.push((await t.call(url)).headers.get('etag'));
    await t.server.store.write((tx) => tx.update('products', added.id, { price: added.price + 1 }));
    etags.push((await t.call(url)).headers.get('etag'));
    await t.server.store.write((tx) => tx.delete('products', added.id));
    const last = await t.call(url);
    etags.push(last.headers.get('etag'));
    expect(new Set(etags.slice(0, 3)).size).toBe(3);
    expect(etags[3]).not.toBe(etags[2]);
    // Removing the member restores the original bytes, but a client that saw the intermediate state must not get a 304.
    const stale = await t.call(url, { headers: { 'if-none-match': etags[2]! } });
    expect(stale.status).toBe(200);
  });
});

describe('product detail', () => {
  it('embeds the variants and the shop summary', async () => {
    const row = rows.find((r) => r.shop_id === '1' && r.status === 'visible')!;
    const product = await t.json(`/shops/1/products/${row.id}.json`, { token: t.publicToken, status: 200 });
    expect(product).toMatchObject({
      _class: ['product'],
      id: row.id,
      title: row.title,
      description: row.description,
      price_comparison: row.price_comparison,
      vendor: row.vendor,
      tags: row.tags,
      stock: row.variants.reduce((sum, v) => sum + v.stock, 0),
      created_on: row.created_on,
      currency_code: 'GBP',
    });
    expect(product._links).toEqual({
      curies: [{ name: 'svc', href: `${t.server.origin}/rels/{rel}`, templated: true }],
      self: { href: `${t.base}/shops/1/products/${row.id}.json` },
      'svc:shop': { href: `${t.base}/shops/1.json` },
    });
    expect(product._embedded.variants).toEqual(row.variants.map((v) => ({ _class: ['productVariant'], ...v })));
    // Spec §2.1: an embedded member is an array of resources, even of one.
    expect(product._embedded.shop).toEqual([
      expect.objectContaining({ _class: ['shop'], id: '1', _links: { self: { href: `${t.base}/shops/1.json` } } }),
    ]);
  });

  it('shows a hidden product to the shop administrator only', async () => {
    const hidden = rows.find((r) => r.shop_id === '1' && r.status === 'hidden')!;
    expect((await t.call(`/shops/1/products/${hidden.id}`)).status).toBe(200);
    expect((await t.call(`/shops/1/products/${hidden.id}`, { token: t.publicToken })).status).toBe(404);
    expect((await t.call(`/shops/1/products/${hidden.id}`, { token: t.otherAdmin })).status).toBe(404);
  });

  it('is 404 under the wrong shop, in an invisible shop, or when unknown', async () => {
    const inShop1 = rows.find((r) => r.shop_id === '1' && r.status === 'visible')!;
    const inShop2 = rows.find((r) => r.shop_id === '2' && r.status === 'visible')!;
    expect((await t.call(`/shops/3/products/${inShop1.id}`)).status).toBe(404);
    expect((await t.call(`/shops/2/products/${inShop2.id}`, { token: t.otherAdmin })).status).toBe(404);
    expect((await t.call('/shops/1/products/999999')).status).toBe(404);
  });
});
