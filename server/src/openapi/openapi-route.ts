/** `GET {base_url}/openapi.json`: the OpenAPI 3.1 document of the service, open without a token. */
import { type Entity, jsonEntity } from '../http/entity.js';
import type { Route } from '../http/route.js';
import { type DescribedRoutes, OPENAPI_MEDIA_TYPE, openApiDocument } from './document.js';

/** The route serving the document of `routes` (given late: the document's own route is one of them). */
export function openApiRoute(routes: () => DescribedRoutes): Route {
  return {
    method: 'GET',
    path: '/openapi',
    scope: null,
    handle({ context, cache }) {
      // The document depends only on the code and the addresses: built once per core, dated by its first request.
      const build = (): Entity => ({
        ...jsonEntity(openApiDocument(context.addresses, routes()), context.clock.now()),
        contentType: OPENAPI_MEDIA_TYPE,
      });
      return { entity: cache.cached('openapi', [], build) };
    },
  };
}
