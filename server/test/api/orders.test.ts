import { beforeAll, describe, expect, it } from 'vitest';
import type { OrderRow } from '../../src/store/types.js';
import { type Doc, useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();
let rows: readonly OrderRow[];
beforeAll(() => {
  rows = t.server.store.all('orders');
});

const ids = (list: Doc) => (list._embedded.items as Doc[]).map((item) => item.id);
const total = (row: OrderRow) => row.line_items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0);

describe('order list', () => {
  it('lists the orders of the shops the caller administers, newest first', async () => {
    const list = await t.json('/orders.json?per_page=100', { status: 200 });
    expect(list._class).toEqual(['results', 'order']);
    const mine = rows
      .filter((r) => r.shop_id === '1' || r.shop_id === '2')
      .sort((a, b) =>
        a.updated_on < b.updated_on ? 1 : a.updated_on > b.updated_on ? -1 : Number(b.id) - Number(a.id),
      );
    expect(mine.length).toBeGreaterThan(0);
    expect(ids(list)).toEqual(mine.map((r) => r.id));
    const first = list._embedded.items[0] as Doc;
    const row = mine[0]!;
    expect(first).toEqual({
      _class: ['order'],
      id: row.id,
      code: row.code,
      status: row.status,
      total: total(row),
      currency_code: row.currency_code,
      created_on: row.created_on,
      updated_on: row.updated_on,
      _links: { self: { href: `${t.base}/shops/${row.shop_id}/orders/${row.id}.json` } },
    });
  });

  it('shows another admin only their own shop’s orders, whatever shop_ids asks for', async () => {
    const list = await t.json('/orders?shop_ids=1,2,3&per_page=100', { token: t.otherAdmin });
    expect(ids(list).sort()).toEqual(
      rows
        .filter((r) => r.shop_id === '3')
        .map((r) => r.id)
        .sort(),
    );
  });

  it('filters by status, q and sorts by total', async () => {
    const status = rows.find((r) => r.shop_id === '1')!.status;
    const byStatus = await t.json(`/orders?status=${status}&shop_ids=1&per_page=100`);
    expect(ids(byStatus).sort()).toEqual(
      rows
        .filter((r) => r.shop_id === '1' && r.status === status)
        .map((r) => r.id)
        .sort(),
    );
    const someone = rows.find((r) => r.shop_id === '2')!;
    const byQ = await t.json(`/orders?q=${encodeURIComponent(someone.code.toLowerCase())}`);
    expect(ids(byQ)).toEqual([someone.id]);
    const sorted = await t.json('/orders?sort=total.desc&per_page=100');
    const totals = (sorted._embedded.items as Doc[]).map((o) => o.total as number);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
  });

  it('needs an admin token: 403 with the scope in WWW-Authenticate', async () => {
    const response = await t.call('/orders', { token: t.publicToken });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="storefront", error="insufficient_scope", scope="admin"',
    );
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('admin');
    expect(response.headers.get('x-oauth-scopes')).toBe('public');
    expect((await response.json())._class).toEqual(['errors']);
  });

  it.each([['status=lost'], ['sort=code.asc'], ['per_page=101']])('refuses %s with a 400', async (search) => {
    expect((await t.call(`/orders?${search}`)).status).toBe(400);
  });
});

describe('order detail', () => {
  it('embeds the line items and carries contact and address', async () => {
    const row = rows.find((r) => r.shop_id === '1')!;
    const order = await t.json(`/shops/1/orders/${row.id}.json`, { status: 200 });
    expect(order).toMatchObject({
      _class: ['order'],
      id: row.id,
      code: row.code,
      total: total(row),
      contact: row.contact,
      address: row.address,
    });
    expect(order._links).toEqual({
      curies: [{ name: 'svc', href: `${t.server.origin}/rels/{rel}`, templated: true }],
      self: { href: `${t.base}/shops/1/orders/${row.id}.json` },
      'svc:shop': { href: `${t.base}/shops/1.json` },
    });
    expect(order._embedded.line_items).toEqual(
      row.line_items.map((item) => ({ _class: ['orderLineItem'], ...item, total: item.quantity * item.unit_price })),
    );
  });

  it('is 404 for other people’s shops, the wrong shop, or an unknown order; 403 for public tokens', async () => {
    const ofShop3 = rows.find((r) => r.shop_id === '3')!;
    const ofShop1 = rows.find((r) => r.shop_id === '1')!;
    expect((await t.call(`/shops/3/orders/${ofShop3.id}`)).status).toBe(404);
    expect((await t.call(`/shops/3/orders/${ofShop3.id}`, { token: t.otherAdmin })).status).toBe(200);
    expect((await t.call(`/shops/2/orders/${ofShop1.id}`)).status).toBe(404);
    expect((await t.call('/shops/1/orders/99999')).status).toBe(404);
    expect((await t.call(`/shops/1/orders/${ofShop1.id}`, { token: t.publicToken })).status).toBe(403);
  });
});
