/** `GET {base_url}/openapi.json`: the OpenAPI 3.1 document of the service, open without a token. */
import { type Entity, jsonEntity } from '../http/entity.js';
import type { Route } from '../http/route.js';
import { type DescribedRoutes, openApiDocument } from './document.js';

/**
 * The media type the OpenAPI Initiative registered for its JSON documents, with the version they follow: the
 * document is served as it, and the root's `service-desc` link announces it.
 */
export const OPENAPI_MEDIA_TYPE = 'application/vnd.oai.openapi+json;version=3.1';

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
