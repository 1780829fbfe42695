/** Products: the filtered, sorted, paged list and a product's detail. */
import type { Addresses, Principal } from '../core/types.js';
import type { Call, Reply, Route } from '../http/route.js';
import type { ProductRow, ShopRow, Store } from '../store/types.js';
import { administers, canSee, shopRow, visibleShop } from './access.js';
import { queryValues } from './contract-schemas.js';
import { type Hal, halEntity, link, resource } from './hal.js';
import { orderOf, type SortKey, sortRows } from './list-order.js';
import { type FilterValues, filterParams, PRODUCT_FILTERS } from './list-query.js';
import { list, oneOf, search } from './query.js';
import { listReply, newest } from './results.js';
import { shopSummary } from './shops.js';
import { productsUrl, productUrl, shopUrl } from './urls.js';

const SORT_KEYS: Record<string, SortKey<ProductRow>> = {
  updated_on: { type: 'string', of: (row) => row.updated_on },
  created_on: { type: 'string', of: (row) => row.created_on },
  title: { type: 'string', of: (row) => row.title.toLowerCase() },
  price: { type: 'number', of: (row) => row.price },
};

export function summaryFields(row: ProductRow) {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    price: row.price,
    status: row.status,
    updated_on: row.updated_on,
  };
}

function productSummary(addresses: Addresses, row: ProductRow): Hal<'productSummary'> {
  return resource('productSummary', summaryFields(row), {
    self: link('self', productUrl(addresses, row.shop_id, row.id)),
  });
}

export function productDetail(addresses: Addresses, row: ProductRow, shop: ShopRow): Hal<'product'> {
  const fields = {
    ...summaryFields(row),
    description: row.description,
    price_comparison: row.price_comparison,
    vendor: row.vendor,
    tags: row.tags,
    stock: row.variants.reduce((sum, variant) => sum + variant.stock, 0),
    created_on: row.created_on,
    currency_code: shop.currency_code,
  };
  const links = {
    self: link('self', productUrl(addresses, row.shop_id, row.id)),
    'svc:shop': link('svc:shop', shopUrl(addresses, shop.id)),
  };
  const variants = row.variants.map((variant) => resource('productVariant', variant));
  return resource('product', fields, links, { variants, shop: [shopSummary(addresses, shop)] });
}

/**
 * What the caller may see of the catalogue: products of shops visible to them, hidden ones only in
 * the shops they administer. Callers who own no shop all see the same, and share cache entries.
 */
function viewer(store: Store, principal: Principal) {
  const own = store.where('shops', 'owner_id', principal.userId);
  const visible = new Set(
    store
      .all('shops')
      .filter((shop) => canSee(principal, shop))
      .map((shop) => shop.id),
  );
  const administered = new Set(own.filter((shop) => administers(principal, shop)).map((shop) => shop.id));
  const variant = own.length === 0 ? 'anyone' : `${principal.userId}:${administered.size ? 'admin' : 'public'}`;
  return { visible, administered, variant };
}

async function listProducts(call: Call): Promise<Reply> {
  const { context, query, cache, principal } = call;
  const { store, addresses } = context;
  const filter = {
    q: search(query),
    shop_ids: list(query, 'shop_ids'),
    status: oneOf(query, 'status', await queryValues('root', 'svc:all_products', 'status')),
    tags: list(query, 'tags')?.map((tag) => tag.toLowerCase()),
    sort: oneOf(query, 'sort', await queryValues('root', 'svc:all_products', 'sort')),
  } satisfies FilterValues<typeof PRODUCT_FILTERS>;
  const { q, shop_ids: shopIds, status, tags, sort } = filter;
  const { visible, administered, variant } = viewer(store, principal);
  const order = orderOf(sort ?? 'updated_on.desc', SORT_KEYS);
  return listReply(call, 'productSummary', {
    name: 'products',
    variant,
    href: productsUrl(addresses),
    params: filterParams(PRODUCT_FILTERS, filter),
    order,
    collections: ['products', 'shops'],
    rows: () => {
      // One ascending sort per field serves every filter and both directions.
      const sorted = cache.memo(`products:sorted:${order.field}`, [store.revision('products')], () =>
        sortRows(store.all('products'), { ...order, descending: false }),
      );
      const wanted = shopIds ? new Set(shopIds.filter((id) => visible.has(id))) : visible;
      const rows = sorted.filter(
        (row) =>
          wanted.has(row.shop_id) &&
          (row.status === 'visible' || administered.has(row.shop_id)) &&
          (!status || row.status === status) &&
          (!tags || tags.every((tag) => row.tags.some((t) => t.toLowerCase() === tag))) &&
          (!q || `${row.title}\n${row.vendor}\n${row.tags.join('\n')}`.toLowerCase().includes(q)),
      );
      return order.descending ? rows.reverse() : rows;
    },
    lastModified: newest,
    summary: (row) => productSummary(addresses, row),
  });
}

function showProduct(call: Call): Reply {
  const { store, addresses } = call.context;
  const shop = visibleShop(call, call.params.shop_id!);
  // A hidden product is shown to its shop's administrator only, as in the list.
  const row = shopRow(call, 'products', shop, (r) => r.status === 'visible' || administers(call.principal, shop));
  const revisions = [store.revision('products'), store.revision('shops')];
  const modified = Math.max(Date.parse(row.updated_on), Date.parse(shop.updated_on));
  const build = () => halEntity(addresses, productDetail(addresses, row, shop), modified);
  return { entity: call.cache.cached(`product:${row.id}`, revisions, build) };
}

export const productRoutes: Route[] = [
  { method: 'GET', path: '/products', scope: 'public', handle: listProducts },
  { method: 'GET', path: '/shops/:shop_id/products/:id', scope: 'public', handle: showProduct },
];
