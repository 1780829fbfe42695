/** The entry point at `{base_url}`: who the caller is, and links to everything their token may use. */
import { notFound } from '../http/http-error.js';
import type { Route } from '../http/route.js';
import { OPENAPI_MEDIA_TYPE } from '../openapi/media-type.js';
import { hasScope, ownShops } from './access.js';
import { endpointsTemplate, endpointsUrl, eventsTemplate, eventTemplate } from './events/urls.js';
import { halEntity, type LinksOf, link, resource } from './hal.js';
import { newest } from './results.js';
import { shopSummary } from './shops.js';
import {
  ordersTemplate,
  orderTemplate,
  productsTemplate,
  productTemplate,
  shopsTemplate,
  shopTemplate,
} from './urls.js';

export const rootRoutes: Route[] = [
  {
    method: 'GET',
    path: '/',
    scope: 'public',
    handle(call) {
      const { context, principal, cache } = call;
      const { store, addresses } = context;
      const base = addresses.baseUrl;
      const scopes = principal.scopes.join(',');
      const key = `root:${principal.userId}:${scopes}`;
      const build = () => {
        const user = store.get('users', principal.userId);
        if (!user) throw notFound('No such user');
        const admin = hasScope(principal, 'admin');
        const templated = { templated: true };
        const links: LinksOf<'root'> = {
          self: link('self', base),
          'svc:all_products': link('svc:all_products', productsTemplate(addresses), templated),
          'svc:product': link('svc:product', productTemplate(addresses), templated),
          'svc:shops': link('svc:shops', shopsTemplate(addresses), templated),
          'svc:shop': link('svc:shop', shopTemplate(addresses), templated),
        };
        if (admin) {
          links['svc:all_orders'] = link('svc:all_orders', ordersTemplate(addresses), templated);
          links['svc:order'] = link('svc:order', orderTemplate(addresses), templated);
          links['svc:events'] = link('svc:events', eventsTemplate(addresses), templated);
          links['svc:event'] = link('svc:event', eventTemplate(addresses), templated);
          links['svc:webhook_endpoints'] = link('svc:webhook_endpoints', endpointsTemplate(addresses), templated);
          links['svc:create_webhook_endpoint'] = link('svc:create_webhook_endpoint', endpointsUrl(addresses));
        }
        // RFC 8631's relation for the description meant for machines: the OpenAPI document.
        links['service-desc'] = { href: `${base}/openapi.json`, type: OPENAPI_MEDIA_TYPE };
        // RFC 8631's relation for documentation meant for people: the explorer is the API's own, interactive.
        if (context.explorerUrl) {
          links['service-doc'] = { href: context.explorerUrl, type: 'text/html', title: 'API explorer' };
        }
        const shops = ownShops(call);
        const fields = { user_name: user.name, role: user.role, scopes };
        const embedded = { shops: shops.map((shop) => shopSummary(addresses, shop)) };
        return halEntity(addresses, resource('root', fields, links, embedded), newest(shops));
      };
      return { entity: cache.cached(key, [store.revision('users'), store.revision('shops')], build) };
    },
  },
];
