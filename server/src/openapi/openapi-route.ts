/** `GET {base_url}/openapi.json`: the OpenAPI 3.1 document of the service, open without a token. */
import { type Entity, jsonEntity } from '../http/entity.js';
import type { Route } from '../http/route.js';
import type { DescribedRoutes } from './document.js';
import { OPENAPI_MEDIA_TYPE } from './media-type.js';

/** The route serving the document of `routes` (given late: the document's own route is one of them). */
export function openApiRoute(routes: () => DescribedRoutes): Route {
  return {
    method: 'GET',
    path: '/openapi',
    scope: null,
    async handle({ context, cache }) {
      // The document's module (its schemas, examples and descriptions) loads on the document's first request: a
      // server's start, and every request before, do without it.
      const { openApiDocument } = await import('./document.js');
      // The document depends only on the code and the addresses: built once per core, dated by its first request.
      const build = (): Entity => ({
        ...jsonEntity(openApiDocument(context.addresses, routes()), context.clock.now()),
        contentType: OPENAPI_MEDIA_TYPE,
      });
      return { entity: cache.cached('openapi', [], build) };
    },
  };
}
