/**
 * `createHandlers()`: the reference server's core as MSW request handlers over an in-memory store, so that an
 * app's tests mocked with MSW see exactly what the real server sends.
 */

import { type HttpHandler, HttpResponse, http } from 'msw';
import type { TriggerOptions, TriggerType } from '../api/events/trigger.js';
import { addressesOf } from '../core/addresses.js';
import { toFetchHandler } from '../core/fetch-adapter.js';
import type { Clock } from '../core/types.js';
import type { TriggeredEvent } from '../create-server.js';
import type { ServerCredentials } from '../demo-credentials.js';
import { RateLimiter, type RateLimitPolicy, rateLimitOption } from '../http/rate-limit.js';
import { tokenTtlOf } from '../oauth/token-ttl.js';
import { SandboxClock } from '../sandbox/clock.js';
import { bearerTokenOf, FaultSet, type SandboxFaults } from '../sandbox/faults.js';
import { RequestJournal } from '../sandbox/journal.js';
import { memoryShelf } from '../sandbox/memory-shelf.js';
import { RateLimitSetting } from '../sandbox/rate-limit-setting.js';
import {
  createSandbox,
  type SandboxClockControls,
  type SandboxJournal,
  type SandboxRateLimit,
  type SandboxSnapshots,
} from '../sandbox/sandbox.js';
import { ConnectionResetFault, TruncatedFault } from '../sandbox/shell-fault.js';
import { SlowBodyFault, slowBodyResponse } from '../sandbox/slow-body.js';
import type { SandboxTeam } from '../sandbox/team-types.js';
import { expireSandboxToken, type IssuedSandboxToken, type IssueTokenOptions } from '../sandbox/tokens.js';
import type { SeedOptions } from '../seed/index.js';
import { createMemoryStore } from '../store/memory.js';
import type { Dataset, Store } from '../store/types.js';
import {
  type FailureOptions,
  failureHandler,
  networkFailure,
  type ServerErrorOptions,
  serverFailure,
  slowFailure,
  under,
} from './failures.js';
import { initialData } from './initial-data.js';
import { forwardingStore, liveCore } from './live-core.js';
import { type MockWebhookOptions, MockWebhookState, type MockWebhooks } from './webhooks.js';

/** The default origin of the handlers, the reference server's default address. */
const DEFAULT_ORIGIN = 'http://localhost:4000';

/** Options of {@link createHandlers}. Every field is optional. */
export interface HandlersOptions {
  /**
   * Origin the mocked service answers at (MSW matches absolute URLs in Node). `{base_url}` is `{origin}/v1`,
   * the token endpoint `{origin}/oauth/token`. Default `http://localhost:4000`, the reference server's.
   */
  origin?: string;
  /**
   * Seed options for the demo data: default the demo seed, 300 products, with the fixed demo secrets
   * `msw-demo-client-secret` and `msw-demo-password`. Not with {@link HandlersOptions.data}.
   *
   * A data set here still works, as `data` (deprecated: it goes in `data`; this form is removed in the next major).
   */
  seed?: SeedOptions | Partial<Dataset>;
  /**
   * A data set of the test's own, which replaces the demo data entirely: rows written by hand, or a shop's data
   * read with `readDataset(dir)` (Node) or imported from a JSON file (a browser test's bundle). It is copied: the
   * object given is never changed, and `reset()` returns to it. Collections it lacks are empty; a collection that
   * is not one of a data set, or a row without a string `id`, is a `TypeError`. Not with `seed`.
   */
  data?: Partial<Dataset>;
  /** Source of the current time: token expiry, `updated_on` of writes, `Last-Modified` of errors. Default `Date.now`. */
  clock?: Clock;
  /** Lifetime of issued access tokens, in seconds. Default 3600. */
  tokenTtl?: number;
  /** Webhook delivery: an attempt's timeout and the attempts in flight at most. */
  webhooks?: MockWebhookOptions;
  /**
   * A rate limit per app and user, as the server's `rateLimit`: `"120/60s"` (or `{ quota, windowSeconds }`). Answers
   * to requests with a valid token carry `RateLimit-Policy` and `RateLimit`, and past the quota the mock answers 429
   * with `Retry-After`. Windows follow the mock's clock. Default: none.
   */
  rateLimit?: string | RateLimitPolicy;
}

/** Options of {@link StorefrontMock.issueToken}: the scope(s), and the login of the user (default: the demo user). */
export type { IssueTokenOptions };

/** A token issued by {@link StorefrontMock.issueToken}: the fields of the SDK's `TokenInfo`. */
export type MockToken = IssuedSandboxToken;

/**
 * The mocked service: its handlers, its data and the failures a test can simulate. The team's data (`apps`,
 * `users`, `shops`, `products`, `orders`: added, listed, removed) are the twins of the control API's
 * `/_sandbox/apps`… (docs/server.md, "Steering the sandbox"); `reset()` takes them back out.
 */
export interface StorefrontMock extends SandboxTeam {
  /**
   * The handlers: every method (HEAD and OPTIONS included) on every path under the origin, the resource API,
   * the token and authorize endpoints, theme files and relation pages alike. Pass them to `setupServer` or
   * `setupWorker`. Requests to other origins are not handled. In browsers MSW intercepts requests made by the
   * page (fetch, XHR, images), not navigations: the authorize page answers a `fetch`, not a redirect of the tab.
   */
  handlers: HttpHandler[];
  /** The origin, e.g. `http://localhost:4000`. */
  origin: string;
  /** `{base_url}`, the API root: `{origin}/v1`. */
  baseUrl: string;
  /** The mock's data, for setting up and checking state. It always reaches the current data, across resets. */
  store: Store;
  /**
   * The demo app and user (the first app of the data and its owner); `password` is `undefined` for a data set
   * given ready, which holds only a hash. `undefined` when the data holds no app.
   */
  credentials: ServerCredentials | undefined;
  /**
   * Back to the initial data (tokens issued since are forgotten, ids start over, webhook endpoints, events and
   * deliveries are gone, receivers registered with `webhooks.receive` are unregistered). Call it in `afterEach`.
   */
  reset(): void;
  /**
   * Snapshots of the whole data, by name: taken, listed, restored (in one write), deleted. They outlast
   * `reset()`, so that a suite can take one in `beforeAll` and restore it in `beforeEach`. The twin of the
   * control API's `/_sandbox/snapshots` (docs/server.md, "Steering the sandbox").
   *
   * @example
   * await mock.snapshots.take('signed-up');
   * await mock.snapshots.restore('signed-up');
   */
  snapshots: SandboxSnapshots;
  /**
   * The mock's clock (over the `clock` option): read, set, advance; token expiry, `updated_on` and webhook retries
   * follow it. The twin of the control API's `/_sandbox/clock`.
   *
   * @example
   * mock.clock.advance(3_600_000); // tokens issued an hour ago have expired
   */
  clock: SandboxClockControls;
  /**
   * The requests the mock answered (the newest 1000): method, path, status, duration, `X-Request-Id`, the app and
   * user of the token, the route that matched. Filtered by method, path prefix and status; cleared. The twin of
   * the control API's `/_sandbox/journal`.
   *
   * @example
   * expect(mock.journal.entries({ method: 'POST', path: '/oauth/token' })).toHaveLength(1);
   */
  journal: SandboxJournal;
  /**
   * Fault rules, decided by the same code as the control API's `/_sandbox/faults`: a `status` (an error in the
   * API's shape, optional `retry_after`), a `delay` (fixed or a seeded uniform range), a `reset` (`fetch`
   * rejects), a `truncated` body, a `slow_body` (at `bytes_per_second`) or an `expired_token`, for requests
   * matching `method` and `path` or `relation`, `times` times, with a seeded `probability`. Not removed by
   * `reset()` nor by `server.resetHandlers()`: `faults.clear()` in `afterEach`.
   *
   * @example
   * mock.faults.add({ kind: 'status', status: 503, retry_after: 0, path: '/v1/*', times: 1 });
   * mock.faults.add({ kind: 'reset', method: 'GET', probability: 0.2, seed: 7 });
   * mock.faults.add({ kind: 'slow_body', relation: 'svc:theme', bytes_per_second: 100 });
   */
  faults: SandboxFaults;
  /**
   * The rate limit per app and user: read, set (`"120/60s"`), or turned off (`null`), decided by the same code as
   * the control API's `/_sandbox/rate-limit`. `reset()` forgets the counts, not the limit.
   *
   * @example
   * mock.rateLimit.set('5/60s');
   * mock.clock.advance(60_000); // the next window: 5 requests again
   */
  rateLimit: SandboxRateLimit;
  /**
   * Webhooks: the API's writes record their events and deliver them to the app's endpoints (registered through
   * the API, `svc:create_webhook_endpoint`) with the server's headers, signatures and retry schedule, on the
   * mock's clock. Each attempt goes to the function registered for the endpoint's URL, or else to the URL itself
   * (MSW lets it through: `bypass`). No redirect is followed; no address is refused.
   *
   * @example
   * mock.webhooks.receive('http://app.test/webhooks', (request) => app.handleWebhook(request));
   * await client.follow('svc:update_template', { body: '…' }); // an endpoint for template.updated exists
   * await mock.webhooks.drain();
   * expect(mock.webhooks.deliveries().map((d) => d.event_type)).toEqual(['template.updated']);
   */
  webhooks: MockWebhooks;
  /**
   * Creates or changes the real product or order that `type` (`product.created`, `product.updated`,
   * `order.created`, `order.updated`) reports, in one write with its event, as `server.trigger` does, and resolves
   * with the event as `GET svc:event` shows it; its deliveries follow like any write's. Rejects with a
   * `TriggerError` (nothing written) for an unknown type, shop, id or `set` field.
   *
   * @example
   * await mock.trigger('order.created', { shop: 'northwind', set: { total: 0 } });
   * await mock.webhooks.drain();
   */
  trigger<T extends TriggerType>(type: T, options: TriggerOptions): Promise<TriggeredEvent<T>>;
  /**
   * An access token of the demo app, straight into the store, without a token request.
   *
   * @example
   * const { accessToken } = await mock.issueToken({ scope: 'admin' });
   * const client = createClient({ baseUrl: mock.baseUrl, auth: bearer(accessToken) });
   */
  issueToken(options: IssueTokenOptions): Promise<MockToken>;
  /**
   * Makes a token expire now (by the mock's clock). The API then answers it with the reference server's 401
   * (`WWW-Authenticate: Bearer realm="storefront", error="invalid_token"`), and it can still be exchanged
   * through the JWT bearer grant, as a token that expired on its own. Rejects for a token the mock never issued.
   *
   * @example
   * await mock.expireToken(accessToken);
   * await client.root(); // 401, the `authorized(...)` strategy exchanges the token, then retries
   */
  expireToken(token: string): Promise<void>;
  /**
   * A handler that makes the bearer token of each matching request expire just before the mock answers it:
   * for when the test does not hold the token (client credentials, a token the app stored). Default path: the
   * whole API (`/v1` and every path below it).
   *
   * @example
   * server.use(mock.expiredToken({ times: 1 }));
   * await app.syncTheme(); // one 401, one JWT bearer exchange, then success
   */
  expiredToken(options?: FailureOptions): HttpHandler;
  /**
   * A handler answering a 5xx with the API's error body and headers (`{"_class":["errors"],"message":…}`).
   *
   * @example
   * server.use(mock.serverError({ status: 503, times: 1, retryAfter: 0 })); // one failure, then the mock answers
   * server.use(mock.serverError({ path: '/v1/products.json' })); // every product list fails
   */
  serverError(options?: ServerErrorOptions): HttpHandler;
  /**
   * A handler that holds matching requests `ms` milliseconds, then lets the mock answer them: for timeouts,
   * spinners and races.
   *
   * @example
   * server.use(mock.slowResponse(2_000, { path: '/v1/shops/:shop_id/theme.json' }));
   * await expect(app.loadTheme()).rejects.toBeInstanceOf(TimeoutError); // a client with `timeout: 500`
   */
  slowResponse(ms: number, options?: FailureOptions): HttpHandler;
  /**
   * A handler that fails matching requests at the network level: `fetch` rejects with a `TypeError`.
   *
   * @example
   * server.use(mock.networkError({ method: 'GET', times: 1 })); // the SDK retries an idempotent request
   */
  networkError(options?: FailureOptions): HttpHandler;
}

/** The answer of `fault`: its status and headers, and a body stream that errors after the bytes it keeps. */
function truncatedResponse(fault: TruncatedFault): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(fault.bytes);
      controller.error(new TypeError('terminated: a fault rule cut the answer short'));
    },
  });
  return new Response(body, { status: fault.response.status, headers: fault.response.headers });
}

const systemClock: Clock = { now: () => Date.now() };

/**
 * Builds MSW handlers over the reference server's core and an in-memory copy of the demo data (or the test's).
 * The same routes, headers, 304s, errors and token grants as `createServer()`, without a network. Works with
 * msw 2 (`^2.7`) and 3, in Node (`setupServer`) and browsers (`setupWorker`). The second signature, a data set
 * passed as `seed`, is deprecated: pass it as `data`.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from '@storefront-platform/server/msw';
 *
 * const mock = createHandlers();
 * const server = setupServer(...mock.handlers);
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * afterEach(() => {
 *   server.resetHandlers();
 *   mock.reset();
 * });
 * afterAll(() => server.close());
 */
export function createHandlers(options?: Omit<HandlersOptions, 'seed'> & { seed?: SeedOptions }): StorefrontMock;
/**
 * @deprecated A data set passed as `seed`: pass it as `data` (`createHandlers({ data })`). This form is removed in
 * the next major.
 */
export function createHandlers(options: HandlersOptions): StorefrontMock;
export function createHandlers(options: HandlersOptions = {}): StorefrontMock {
  const tokenTtl = tokenTtlOf(options.tokenTtl);
  const addresses = addressesOf(options.origin ?? DEFAULT_ORIGIN);
  // The sandbox's own state (fault rules, the clock's offset) in a store of its own, which `reset()` keeps.
  const sandboxState = createMemoryStore();
  const clock = new SandboxClock(options.clock ?? systemClock, sandboxState);
  const { dataset, credentials, seeded } = initialData(options);
  const webhooks = new MockWebhookState(options.webhooks);
  const rateLimitSetting = new RateLimitSetting(sandboxState, rateLimitOption('rateLimit', options.rateLimit));
  const rateLimit = new RateLimiter(() => rateLimitSetting.get(), clock);
  const live = liveCore(dataset, { addresses, clock, tokenTtl, rateLimit }, seeded, {
    store: (store) => webhooks.observe(store),
    options: () => ({
      webhooks: {
        send: webhooks.sender(),
        timeoutMs: webhooks.timeoutMs,
        ...(webhooks.concurrency === undefined ? {} : { concurrency: webhooks.concurrency }),
      },
    }),
  });
  const { origin } = addresses;
  const journal = new RequestJournal();
  const faults = new FaultSet(sandboxState);
  const expire = (token: string) => expireSandboxToken(live.core.context, token);
  const now = () => clock.now();
  const core = toFetchHandler(
    journal.around(
      faults.around((request) => live.core.handle(request), expire, now),
      now,
    ),
  );
  const answer = (request: Request) =>
    core(request).catch((error: unknown) => {
      // A fault rule asked for the connection to be cut: `fetch` rejects with a `TypeError`.
      if (error instanceof ConnectionResetFault) return HttpResponse.error();
      // A fault rule asked for the answer cut short: its headers, then a body that fails after its first bytes.
      if (error instanceof TruncatedFault) return truncatedResponse(error);
      // A fault rule asked for a slow body: its headers, then a body stream that trickles.
      if (error instanceof SlowBodyFault) return slowBodyResponse(error, request.signal);
      throw error;
    });
  const deliveries = () => webhooks.deliveries(live.store, addresses);
  const reset = () => {
    webhooks.reset();
    rateLimit.clear();
    live.reset();
  };
  const sandbox = createSandbox({
    store: forwardingStore(live),
    reset: async () => reset(),
    shelf: memoryShelf(),
    clock,
    journal,
    faults,
    rateLimit: rateLimitSetting,
    onClockMoved: () => live.core.webhooks?.wake(),
    context: () => live.core.context,
    webhooks: { deliveries, drain: () => live.core.webhooks?.drain() ?? Promise.resolve() },
  });

  return {
    handlers: [http.all(under(origin), ({ request }) => answer(request))],
    origin,
    baseUrl: addresses.baseUrl,
    store: forwardingStore(live),
    credentials,
    reset,
    snapshots: sandbox.snapshots,
    clock: sandbox.clock,
    journal: sandbox.journal,
    faults: sandbox.faults,
    apps: sandbox.apps,
    users: sandbox.users,
    shops: sandbox.shops,
    products: sandbox.products,
    orders: sandbox.orders,
    rateLimit: sandbox.rateLimit,

    async trigger(type, triggerOptions) {
      // Through the core's context, as the server's trigger: the delivery loop wakes as after any write.
      return (await sandbox.trigger(type, triggerOptions)) as TriggeredEvent<typeof type>;
    },

    webhooks: {
      receive: (url, receiver) => webhooks.receive(url, receiver),
      // The mock's memory store is the only one: nothing to catch up with, so the answer stays synchronous.
      deliveries,
      drain: () => sandbox.webhooks.drain(),
    },

    issueToken: (options) => sandbox.issueToken(options),

    expireToken: (token) => sandbox.expireToken(token),

    expiredToken: (failure = {}) =>
      failureHandler(
        origin,
        failure,
        async (request) => {
          const held = bearerTokenOf({ headers: request.headers, url: new URL(request.url) });
          if (held) await expire(held);
          // The core answers, with its own 401 for the token now expired.
          return undefined;
        },
        under(addresses.baseUrl),
      ),

    serverError: (failure = {}) => failureHandler(origin, failure, serverFailure(failure, now)),

    slowResponse: (ms, failure = {}) => failureHandler(origin, failure, slowFailure(ms)),

    networkError: (failure = {}) => failureHandler(origin, failure, networkFailure),
  };
}
