import { beforeAll, describe, expect, it } from 'vitest';
import { type Doc, useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();
beforeAll(async () => {
  // A shop nobody but its owner (the owner of shop 3) may see.
  await t.server.store.write((tx) => {
    const shop3 = tx.get('shops', '3')!;
    tx.insert('shops', { ...shop3, id: '4', name: 'Secret Stash', subdomain: 'secret-stash', public: false });
  });
});

describe('shop list', () => {
  it('lists the public shops only, as summaries with self links', async () => {
    const list = await t.json('/shops.json', { token: t.publicToken, status: 200 });
    expect(list._class).toEqual(['results', 'shop']);
    expect(list).toMatchObject({ total_items: 2, page: 1, per_page: 30 });
    const items = list._embedded.items as Doc[];
    expect(items.map((s) => s.name).sort()).toEqual(['Juniper & Fig Market', 'Northwind Outfitters']);
    for (const item of items) {
      expect(Object.keys(item)).toEqual([
        '_class',
        'id',
        'name',
        'subdomain',
        'url',
        'currency_code',
        'updated_on',
        '_links',
      ]);
      expect(item._links).toEqual({ self: { href: `${t.base}/shops/${item.id}.json` } });
    }
  });

  it('filters by q on name and subdomain, case-insensitively', async () => {
    const list = await t.json('/shops?q=JUNIPER');
    expect(list._embedded.items.map((s: Doc) => s.id)).toEqual(['3']);
    expect(list._links.self.href).toBe(`${t.base}/shops.json?q=juniper&page=1&per_page=30`);
  });

  it('pages with next, prev, first and last links', async () => {
    const first = await t.json('/shops?per_page=1');
    expect(first.total_items).toBe(2);
    expect(first._embedded.items).toHaveLength(1);
    expect(first._links.prev).toBeUndefined();
    // `next` goes on after the page's last shop, by name (a cursor); the others are offset pages.
    expect(first._links.next.href).toMatch(new RegExp(`^${t.base}/shops\\.json\\?page=2&per_page=1&after=[\\w-]+$`));
    expect(first._links.last).toEqual({ href: `${t.base}/shops.json?page=2&per_page=1` });
    const second = await t.json(first._links.next.href);
    expect(second._links.self).toEqual(first._links.next);
    expect(second._links.next).toBeUndefined();
    expect(second._links.prev).toEqual({ href: `${t.base}/shops.json?page=1&per_page=1` });
    expect(second._embedded.items[0].id).not.toBe(first._embedded.items[0].id);
    expect((await t.json('/shops?per_page=1&page=2'))._embedded).toEqual(second._embedded);
  });

  it('answers a page past the end with 200 and no items', async () => {
    const past = await t.json('/shops?page=9', { status: 200 });
    expect(past).toMatchObject({ total_items: 2, page: 9, per_page: 30 });
    expect(past._embedded.items).toEqual([]);
    expect(past._links.prev).toEqual({ href: `${t.base}/shops.json?page=1&per_page=30` });
  });

  it.each([['page=0'], ['page=-1'], ['page=x'], ['per_page=0'], ['per_page=101'], ['per_page=1.5'], ['page=1&page=2']])(
    'refuses %s with a 400 naming the parameter',
    async (search) => {
      const response = await t.call(`/shops?${search}`);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body._class).toEqual(['errors']);
      expect(body.message).toMatch(/page|per_page/);
    },
  );
});

describe('shop detail', () => {
  it('gives its administrator the theme and orders links', async () => {
    const shop = await t.json('/shops/1.json', { status: 200 });
    expect(shop._class).toEqual(['shop']);
    expect(shop).toMatchObject({ id: '1', name: 'Northwind Outfitters', locale: 'en-GB', currency_code: 'GBP' });
    expect(shop.description).toEqual(expect.any(String));
    expect(shop._links).toEqual({
      curies: [{ name: 'svc', href: `${t.server.origin}/rels/{rel}`, templated: true }],
      self: { href: `${t.base}/shops/1.json` },
      'svc:products': {
        href: `${t.base}/products.json?shop_ids=1{&q,status,tags,sort,page,per_page}`,
        templated: true,
      },
      'svc:theme': { href: `${t.base}/shops/1/theme.json` },
      'svc:orders': { href: `${t.base}/orders.json?shop_ids=1{&status,q,sort,page,per_page}`, templated: true },
      'svc:web': { href: 'https://northwind.storefront.example/', type: 'text/html' },
    });
  });

  it('leaves out the admin links for a public token, even of the owner', async () => {
    const shop = await t.json('/shops/1', { token: t.publicToken, status: 200 });
    expect(Object.keys(shop._links)).toEqual(['curies', 'self', 'svc:products', 'svc:web']);
  });

  it('leaves out the admin links for an admin of another shop', async () => {
    const shop = await t.json('/shops/1', { token: t.otherAdmin, status: 200 });
    expect(Object.keys(shop._links)).toEqual(['curies', 'self', 'svc:products', 'svc:web']);
  });

  it("shows a non-public shop to its owner's admin tokens only; a public token of the owner and others get 404", async () => {
    expect((await t.call('/shops/2')).status).toBe(200);
    expect((await t.call('/shops/2', { token: t.publicToken })).status).toBe(404);
    expect((await t.call('/shops/4', { token: t.otherAdmin })).status).toBe(200);
    const hidden = await t.call('/shops/4');
    expect(hidden.status).toBe(404);
    expect((await hidden.json())._class).toEqual(['errors']);
    expect((await t.call('/shops/2', { token: t.otherAdmin })).status).toBe(404);
  });

  it('is 404 for a shop that does not exist', async () => {
    expect((await t.call('/shops/999.json')).status).toBe(404);
  });
});
