/**
 * The scope rule of the wire contract across every endpoint: a `public` token sees public shops and their visible
 * products only, whoever the user is. The demo user owns shop 2, which is not public: an admin token of theirs
 * reaches it everywhere, their public token nowhere (404, as for a shop that does not exist).
 */
import { describe, expect, it } from 'vitest';
import { type Doc, useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();

describe("a public token of a non-public shop's owner", () => {
  it('is answered 404 by every endpoint of that shop, where an admin token of the owner is answered 200', async () => {
    const product = t.server.store.all('products').find((row) => row.shop_id === '2' && row.status === 'visible')!;
    const order = t.server.store.all('orders').find((row) => row.shop_id === '2');
    expect(order, 'the seed gives shop 2 an order').toBeDefined();
    const paths = [
      '/shops/2.json',
      `/shops/2/products/${product.id}.json`,
      `/shops/2/orders/${order!.id}.json`,
      '/shops/2/theme.json',
    ];
    for (const path of paths) {
      expect((await t.call(path)).status, `admin ${path}`).toBe(200);
      // Theme and orders need the admin scope (403 for a public token anywhere); the shop must not show either way.
      expect([403, 404], `public ${path}`).toContain((await t.call(path, { token: t.publicToken })).status);
      if (!path.includes('theme') && !path.includes('orders')) {
        expect((await t.call(path, { token: t.publicToken })).status, `public ${path}`).toBe(404);
      }
    }
  });

  it('lists none of its products or its shop, where the admin token lists them', async () => {
    const inShop2 = (list: Doc) =>
      (list._embedded.items as Doc[]).filter((item) => (item._links as Doc).self.href.includes('/shops/2/')).length;
    expect(inShop2(await t.json('/products.json?per_page=100'))).toBeGreaterThan(0);
    expect(inShop2(await t.json('/products.json?per_page=100', { token: t.publicToken }))).toBe(0);
    expect((await t.json('/products.json?shop_ids=2', { token: t.publicToken })).total_items).toBe(0);
    const rootShops = async (token?: string) =>
      ((await t.json('/', token ? { token } : {}))._embedded.shops as Doc[]).map((shop) => shop.id);
    expect(await rootShops()).toContain('2');
    expect(await rootShops(t.publicToken)).not.toContain('2');
    const shops = (await t.json('/shops.json?per_page=100', { token: t.publicToken }))._embedded.items as Doc[];
    expect(shops.map((shop) => shop.id)).not.toContain('2');
  });
});
