/** Orders of the shops the caller administers: the list and an order's detail (admin tokens only). */
import type { Addresses } from '../core/types.js';
import type { Call, Reply, Route } from '../http/route.js';
import type { OrderRow } from '../store/types.js';
import { administeredShop, administers, ownShops, shopRow } from './access.js';
import { queryValues } from './contract-schemas.js';
import { type Hal, halEntity, link, resource } from './hal.js';
import { orderOf, type SortKey, sortRows } from './list-order.js';
import { type FilterValues, filterParams, ORDER_FILTERS } from './list-query.js';
import { list, oneOf, search } from './query.js';
import { listReply, newest } from './results.js';
import { ordersUrl, orderUrl, shopUrl } from './urls.js';

/** What an order comes to: its line items' quantities times their unit prices, in cents. */
export const orderTotal = (row: OrderRow) =>
  row.line_items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0);

const SORT_KEYS: Record<string, SortKey<OrderRow>> = {
  updated_on: { type: 'string', of: (row) => row.updated_on },
  created_on: { type: 'string', of: (row) => row.created_on },
  total: { type: 'number', of: orderTotal },
};

export function summaryFields(row: OrderRow) {
  return {
    id: row.id,
    code: row.code,
    status: row.status,
    total: orderTotal(row),
    currency_code: row.currency_code,
    created_on: row.created_on,
    updated_on: row.updated_on,
  };
}

function orderSummary(addresses: Addresses, row: OrderRow): Hal<'orderSummary'> {
  return resource('orderSummary', summaryFields(row), { self: link('self', orderUrl(addresses, row.shop_id, row.id)) });
}

export function orderDetail(addresses: Addresses, row: OrderRow): Hal<'order'> {
  const links = {
    self: link('self', orderUrl(addresses, row.shop_id, row.id)),
    'svc:shop': link('svc:shop', shopUrl(addresses, row.shop_id)),
  };
  const lineItems = row.line_items.map((item) =>
    resource('orderLineItem', { ...item, total: item.quantity * item.unit_price }),
  );
  const fields = { ...summaryFields(row), contact: row.contact, address: row.address };
  return resource('order', fields, links, { line_items: lineItems });
}

function matches(row: OrderRow, q: string): boolean {
  return `${row.code}\n${row.contact.name}\n${row.contact.email}`.toLowerCase().includes(q);
}

async function listOrders(call: Call): Promise<Reply> {
  const { context, query, principal } = call;
  const { store, addresses } = context;
  const filter = {
    shop_ids: list(query, 'shop_ids'),
    status: oneOf(query, 'status', await queryValues('root', 'svc:all_orders', 'status')),
    q: search(query),
    sort: oneOf(query, 'sort', await queryValues('root', 'svc:all_orders', 'sort')),
  } satisfies FilterValues<typeof ORDER_FILTERS>;
  const { shop_ids: shopIds, status, q, sort } = filter;
  const order = orderOf(sort ?? 'updated_on.desc', SORT_KEYS);
  return listReply(call, 'orderSummary', {
    name: 'orders',
    variant: principal.userId,
    href: ordersUrl(addresses),
    params: filterParams(ORDER_FILTERS, filter),
    order,
    collections: ['orders', 'shops'],
    rows: () => {
      const mine = ownShops(call)
        .filter((shop) => administers(principal, shop))
        .map((shop) => shop.id);
      const shops = shopIds ? mine.filter((id) => shopIds.includes(id)) : mine;
      const candidates = shops.flatMap((id) => store.where('orders', 'shop_id', id));
      const rows = candidates.filter((row) => (!status || row.status === status) && (!q || matches(row, q)));
      return sortRows(rows, order);
    },
    lastModified: newest,
    summary: (row) => orderSummary(addresses, row),
  });
}

function showOrder(call: Call): Reply {
  const { store, addresses } = call.context;
  const row = shopRow(call, 'orders', administeredShop(call, call.params.shop_id!));
  const build = () => halEntity(addresses, orderDetail(addresses, row), Date.parse(row.updated_on));
  return { entity: call.cache.cached(`order:${row.id}`, [store.revision('orders')], build) };
}

export const orderRoutes: Route[] = [
  { method: 'GET', path: '/orders', scope: 'admin', handle: listOrders },
  { method: 'GET', path: '/shops/:shop_id/orders/:id', scope: 'admin', handle: showOrder },
];
