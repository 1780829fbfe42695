/** Shops: the list of public shops and a shop's detail. */
import type { Addresses } from '../core/types.js';
import type { Route } from '../http/route.js';
import type { ShopRow } from '../store/types.js';
import { administers, visibleShop } from './access.js';
import { type Hal, halEntity, type LinksOf, link, resource } from './hal.js';
import { type ListOrder, sortRows } from './list-order.js';
import { type FilterValues, filterParams, SHOP_FILTERS } from './list-query.js';
import { search } from './query.js';
import { listReply, newest } from './results.js';
import { shopOrdersTemplate, shopProductsTemplate, shopsUrl, shopThemeUrl, shopUrl, storefrontUrl } from './urls.js';

function summaryFields(shop: ShopRow) {
  return {
    id: shop.id,
    name: shop.name,
    subdomain: shop.subdomain,
    url: storefrontUrl(shop),
    currency_code: shop.currency_code,
    updated_on: shop.updated_on,
  };
}

/** The public shops' one order: by name. */
const BY_NAME: ListOrder<ShopRow> = {
  field: 'name',
  type: 'string',
  of: (shop) => shop.name.toLowerCase(),
  descending: false,
};

/** A shop inside lists, the root and a product's detail. */
export function shopSummary(addresses: Addresses, shop: ShopRow): Hal<'shopSummary'> {
  return resource('shopSummary', summaryFields(shop), { self: link('self', shopUrl(addresses, shop.id)) });
}

/** A shop's detail; the theme and orders links only for its administrators. */
function shopDetail(addresses: Addresses, shop: ShopRow, admin: boolean): Hal<'shop'> {
  const links: LinksOf<'shop'> = {
    self: link('self', shopUrl(addresses, shop.id)),
    'svc:products': link('svc:products', shopProductsTemplate(addresses, shop.id), { templated: true }),
  };
  if (admin) {
    links['svc:theme'] = link('svc:theme', shopThemeUrl(addresses, shop.id));
    links['svc:orders'] = link('svc:orders', shopOrdersTemplate(addresses, shop.id), { templated: true });
  }
  links['svc:web'] = link('svc:web', storefrontUrl(shop));
  return resource('shop', { ...summaryFields(shop), description: shop.description, locale: shop.locale }, links);
}

export const shopRoutes: Route[] = [
  {
    method: 'GET',
    path: '/shops',
    scope: 'public',
    handle(call) {
      const filter = { q: search(call.query) } satisfies FilterValues<typeof SHOP_FILTERS>;
      const { q } = filter;
      const { store, addresses } = call.context;
      return listReply(call, 'shopSummary', {
        name: 'shops',
        // Public shops only: every caller sees the same.
        variant: '',
        href: shopsUrl(addresses),
        params: filterParams(SHOP_FILTERS, filter),
        order: BY_NAME,
        collections: ['shops'],
        rows: () => {
          const rows = store
            .all('shops')
            .filter((shop) => shop.public && (!q || `${shop.name}\n${shop.subdomain}`.toLowerCase().includes(q)));
          return sortRows(rows, BY_NAME);
        },
        lastModified: newest,
        summary: (shop) => shopSummary(addresses, shop),
      });
    },
  },
  {
    method: 'GET',
    path: '/shops/:id',
    scope: 'public',
    handle(call) {
      const shop = visibleShop(call, call.params.id!);
      const admin = administers(call.principal, shop);
      const { store, addresses } = call.context;
      const key = `shop:${shop.id}:${admin ? 'admin' : 'public'}`;
      const build = () => halEntity(addresses, shopDetail(addresses, shop, admin), Date.parse(shop.updated_on));
      return { entity: call.cache.cached(key, [store.revision('shops')], build) };
    },
  },
];
