/**
 * The one server core that Express and MSW both wrap: CORS preflight, the OAuth service, the resource API
 * under `{base_url}`, theme files under `{static_url}` and the relation pages under `{origin}/rels`.
 */
import type { Scope } from '@storefront-platform/sdk/internal';
import { apiRoutes, relationRoutes, staticRoutes } from '../api/routes.js';
import { HttpError } from '../http/http-error.js';
import { type PristineRepresentations, RepresentationCache } from '../http/representation-cache.js';
import { Router } from '../http/router.js';
import { bearerChallenge, createOAuth } from '../oauth/index.js';
import { createAuthenticator } from './authenticator.js';
import { createPipeline } from './dispatch.js';
import { toFetchHandler } from './fetch-adapter.js';
import type { CoreContext, CoreHandler } from './types.js';

/** The server core. */
export interface Core {
  /** The core's own lean request/response form (the Express shell calls this). */
  handle: CoreHandler;
  /** The same as a fetch-standard handler (MSW, tests). */
  fetch(request: Request): Promise<Response>;
}

const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '');

// The route tables are fixed: every core of the process matches with the same routers (a mock per test builds
// a core each time).
const API = new Router(apiRoutes, true);
const STATIC = new Router(staticRoutes, false);
const RELATIONS = new Router(relationRoutes, false);

/** Builds the core over a store, a clock and the addresses clients see. */
export function createCore(context: CoreContext): Core {
  return createSharingCore(context, undefined);
}

/**
 * {@link createCore} with representations shared with the other cores whose stores start from the same data set
 * at the same addresses (MSW's mocks); not in the package's entry, where `createCore` is the way.
 */
export function createSharingCore(context: CoreContext, pristine: PristineRepresentations | undefined): Core {
  const insufficientScope = (scope: Scope) =>
    new HttpError(403, `This request needs a token with the "${scope}" scope`, undefined, {
      'www-authenticate': bearerChallenge({ reason: 'insufficient_scope', scope }),
    });
  const oauth = createOAuth(context);
  const { addresses } = context;
  const handle = createPipeline({
    context,
    cache: new RepresentationCache(context.clock, {}, pristine),
    authenticate: createAuthenticator(context),
    insufficientScope,
    oauth: (request) => oauth.handle(request),
    mounts: [
      { prefix: pathOf(addresses.baseUrl), router: API, api: true },
      { prefix: pathOf(addresses.staticUrl), router: STATIC },
      { prefix: `${pathOf(addresses.origin)}/rels`, router: RELATIONS },
    ],
  });
  return { handle, fetch: toFetchHandler(handle) };
}

export type { CoreContext, CoreHandler, CoreRequest, CoreResponse, Principal } from './types.js';
