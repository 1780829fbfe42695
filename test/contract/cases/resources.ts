/** Every read endpoint of the resource API: root, shops, products, orders, relation pages. */
import { expect } from 'vitest';
import { BASE } from '../fixture.js';
import type { ContractCase } from './types.js';

export const resourceCases: ContractCase[] = [
  {
    name: 'root, with admin and public tokens, as .json and HEAD',
    async run(s) {
      const admin = await s.token('admin');
      const root = await s.send('root (admin)', BASE, { token: admin });
      expect(root.status).toBe(200);
      expect(root.json()._links['svc:all_orders']).toBeDefined();
      await s.send('root with trailing slash', `${BASE}/`, { token: admin });
      await s.send('root as .json', `${BASE}.json`, { token: admin });
      expect((await s.send('root HEAD', BASE, { method: 'HEAD', token: admin })).text).toBe('');
      const publicToken = await s.token('public');
      const limited = await s.send('root (public)', BASE, { token: publicToken });
      expect(limited.json()._links['svc:all_orders']).toBeUndefined();
    },
  },
  {
    name: 'shops: list, search, paging, detail, and 404 for a shop the caller may not see',
    async run(s) {
      const admin = await s.token('admin');
      const list = await s.send('public shops', `${BASE}/shops.json`, { token: admin });
      expect(list.json()._class).toEqual(['results', 'shop']);
      await s.send('shops searched', `${BASE}/shops.json?q=north`, { token: admin });
      await s.send('shops paged', `${BASE}/shops.json?per_page=1&page=2`, { token: admin });
      await s.send('shops page past the end', `${BASE}/shops.json?page=9`, { token: admin });
      expect((await s.send('per_page over 100', `${BASE}/shops.json?per_page=101`, { token: admin })).status).toBe(400);
      const shop = await s.send('own private shop', `${BASE}/shops/2.json`, { token: admin });
      expect(shop.json()._links['svc:theme']).toBeDefined();
      await s.send('public shop of another user', `${BASE}/shops/3`, { token: admin });
      const publicToken = await s.token('public');
      await s.send('own private shop with a public token', `${BASE}/shops/2`, { token: publicToken });
      expect((await s.send('unknown shop', `${BASE}/shops/99`, { token: admin })).status).toBe(404);
    },
  },
  {
    name: 'products: list with every filter, sort and paging, detail, hidden products',
    async run(s) {
      const admin = await s.token('admin');
      const list = await s.send('all products', `${BASE}/products.json`, { token: admin });
      expect(list.json().total_items).toBeGreaterThan(0);
      const paged = await s.send('paged', `${BASE}/products.json?per_page=2&page=2`, { token: admin });
      const links = paged.json()._links;
      expect(Object.keys(links)).toEqual(expect.arrayContaining(['next', 'prev', 'first', 'last']));
      await s.send('follow next', links.next.href, { token: admin });
      await s.send('one shop', `${BASE}/products.json?shop_ids=1&sort=price.asc`, { token: admin });
      await s.send('several shops, by title', `${BASE}/products.json?shop_ids=1,3&sort=title.desc`, { token: admin });
      await s.send('search, status, tags', `${BASE}/products.json?q=jacket&status=visible&tags=sale`, { token: admin });
      await s.send('hidden only', `${BASE}/products.json?status=hidden`, { token: admin });
      for (const [label, query] of [
        ['bad sort', 'sort=random'],
        ['bad status', 'status=deleted'],
        ['bad page', 'page=0'],
        ['bad per_page', 'per_page=abc'],
      ]) {
        expect((await s.send(label!, `${BASE}/products.json?${query}`, { token: admin })).status).toBe(400);
      }
      const first = list.json()._embedded.items[0];
      const detail = await s.send('detail through self', first._links.self.href, { token: admin });
      expect(detail.json()._embedded.variants).toBeDefined();
      const publicToken = await s.token('public');
      await s.send('public token list', `${BASE}/products.json?per_page=100`, { token: publicToken });
      await s.send('product of another shop id', `${BASE}/shops/3/products/1.json`, { token: admin });
    },
  },
  {
    name: 'orders: list, filters, detail; public tokens refused',
    async run(s) {
      const admin = await s.token('admin');
      const list = await s.send('orders', `${BASE}/orders.json`, { token: admin });
      expect(list.json()._class).toEqual(['results', 'order']);
      await s.send('orders by status and sort', `${BASE}/orders.json?status=paid&sort=created_on.asc`, {
        token: admin,
      });
      await s.send('orders of a shop', `${BASE}/orders.json?shop_ids=2&per_page=1`, { token: admin });
      await s.send('orders of a shop the caller does not run', `${BASE}/orders.json?shop_ids=3`, { token: admin });
      const first = list.json()._embedded.items[0];
      const detail = await s.send('order detail', first._links.self.href, { token: admin });
      expect(detail.json()._embedded.line_items.length).toBeGreaterThan(0);
      const publicToken = await s.token('public');
      const refused = await s.send('orders with a public token', `${BASE}/orders.json`, { token: publicToken });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('x-accepted-oauth-scopes')).toBe('admin');
    },
  },
  {
    name: 'relation pages: each documented relation, unknown ones 404, HEAD',
    async run(s) {
      for (const rel of ['update_theme', 'create_template', 'all_products', 'theme_preview']) {
        const page = await s.send(`rel ${rel}`, `/rels/${rel}`);
        expect(page.status).toBe(200);
      }
      await s.send('rel HEAD', '/rels/update_theme', { method: 'HEAD' });
      expect((await s.send('unknown rel', '/rels/no_such_rel')).status).toBe(404);
    },
  },
];
