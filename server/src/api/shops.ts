/** Shops: the list of public shops and a shop's detail. */
import type { HalResource, Links } from '../../../sdk/src/contract/index.js';
import type { Addresses } from '../core/types.js';
import type { Route } from '../http/route.js';
import type { ShopRow } from '../store/types.js';
import { administers, visibleShop } from './access.js';
import { halEntity, link, resource } from './hal.js';
import { search } from './query.js';
import { type Listing, newest, readPaging, resultsEntity, sortRows } from './results.js';
import { ordersUrl, productsUrl, shopsUrl, shopThemeUrl, shopUrl, storefrontUrl } from './urls.js';

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

/** A shop inside lists, the root and a product's detail. */
export function shopSummary(addresses: Addresses, shop: ShopRow): HalResource {
  return resource(['shop'], summaryFields(shop), { self: link('self', shopUrl(addresses, shop.id)) });
}

/** A shop's detail; the theme and orders links only for its administrators. */
function shopDetail(addresses: Addresses, shop: ShopRow, admin: boolean): HalResource {
  const preset = `shop_ids=${encodeURIComponent(shop.id)}`;
  const links: Links = {
    self: link('self', shopUrl(addresses, shop.id)),
    'svc:products': link('svc:products', `${productsUrl(addresses)}?${preset}{&q,status,tags,sort,page,per_page}`, {
      templated: true,
    }),
  };
  if (admin) {
    links['svc:theme'] = link('svc:theme', shopThemeUrl(addresses, shop.id));
    links['svc:orders'] = link('svc:orders', `${ordersUrl(addresses)}?${preset}{&status,q,sort,page,per_page}`, {
      templated: true,
    });
  }
  links['svc:web'] = link('svc:web', storefrontUrl(shop));
  return resource(['shop'], { ...summaryFields(shop), description: shop.description, locale: shop.locale }, links);
}

export const shopRoutes: Route[] = [
  {
    method: 'GET',
    path: '/shops',
    scope: 'public',
    handle({ context, query, cache }) {
      const q = search(query);
      const paging = readPaging(query);
      const { store, addresses } = context;
      const revisions = [store.revision('shops')];
      const listing = cache.memo(`shops:${q ?? ''}`, revisions, (): Listing<ShopRow> => {
        const rows = store
          .all('shops')
          .filter((shop) => shop.public && (!q || `${shop.name}\n${shop.subdomain}`.toLowerCase().includes(q)));
        return {
          kind: 'shop',
          href: shopsUrl(addresses),
          params: q ? [['q', q]] : [],
          rows: sortRows(rows, (shop) => shop.name.toLowerCase(), false),
          lastModified: newest(rows),
          summary: (shop) => shopSummary(addresses, shop),
        };
      });
      const key = `shops:${q ?? ''}:${paging.page}:${paging.perPage}`;
      return { entity: cache.cached(key, revisions, () => resultsEntity(addresses, listing, paging)) };
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
