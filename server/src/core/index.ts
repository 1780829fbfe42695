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
import type { Store, Transaction } from '../store/types.js';
import { Deliverer, type DelivererOptions } from '../webhooks/deliverer.js';
import { WrittenEvents } from '../webhooks/event-signal.js';
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
  /** The webhook delivery loop, when the core was given a way to send (`options.webhooks`). */
  webhooks?: Deliverer;
  /**
   * What the core's routes run with: its store wakes the delivery loop and the event list's long-polls after a
   * write, so that code writing beside the routes (a trigger) goes through it too.
   */
  context: CoreContext;
}

/** What the core does beyond answering requests. */
export interface CoreOptions {
  /** Deliver webhooks with this sender: the loop starts with the core. Without it, attempts stay pending. */
  webhooks?: DelivererOptions;
}

const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '');

// The route tables are fixed: every core of the process matches with the same routers (a mock per test builds
// a core each time).
const API = new Router(apiRoutes, true);
const STATIC = new Router(staticRoutes, false);
const RELATIONS = new Router(relationRoutes, false);

/** Builds the core over a store, a clock and the addresses clients see. */
export function createCore(context: CoreContext, options: CoreOptions = {}): Core {
  return createSharingCore(context, undefined, options);
}

/**
 * {@link createCore} with representations shared with the other cores whose stores start from the same data set
 * at the same addresses (MSW's mocks); not in the package's entry, where `createCore` is the way.
 */
export function createSharingCore(
  given: CoreContext,
  pristine: PristineRepresentations | undefined,
  options: CoreOptions = {},
): Core {
  const events = new WrittenEvents(given.stopping);
  let webhooks: Deliverer | undefined;
  const context: CoreContext = {
    ...given,
    events,
    store: afterWrites(given.store, (changed) => {
      if (changed.events) events.fire();
      if (changed.deliveries) webhooks?.wake();
    }),
  };
  if (options.webhooks) {
    webhooks = new Deliverer(context, options.webhooks);
    webhooks.start();
  }
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
    oauth: (request, requestId) => oauth.handle(request, requestId),
    mounts: [
      { prefix: pathOf(addresses.baseUrl), router: API, api: true },
      { prefix: pathOf(addresses.staticUrl), router: STATIC },
      { prefix: `${pathOf(addresses.origin)}/rels`, router: RELATIONS },
    ],
  });
  return { handle, fetch: toFetchHandler(handle), webhooks, context };
}

/**
 * `store` with `onWrite` told, after each committed write, whether it wrote events or deliveries: the core wakes
 * long-polling requests and the delivery loop with it, so that no route has to.
 */
function afterWrites(store: Store, onWrite: (changed: { events: boolean; deliveries: boolean }) => void): Store {
  return Object.assign(Object.create(store) as Store, {
    async write<T>(fn: (tx: Transaction) => T): Promise<T> {
      const events = store.revision('events');
      const deliveries = store.revision('webhook_deliveries');
      const result = await store.write(fn);
      const changed = {
        events: store.revision('events') !== events,
        deliveries: store.revision('webhook_deliveries') !== deliveries,
      };
      if (changed.events || changed.deliveries) onWrite(changed);
      return result;
    },
  });
}

export type { CoreContext, CoreHandler, CoreRequest, CoreResponse, Principal } from './types.js';
