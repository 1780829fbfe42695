/**
 * `createServer()`: the reference server on a port, over a JSON file, in-memory demo data, a ready
 * data set or a ready store.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventFields } from '@storefront-platform/sdk/internal';
import { eventResource } from './api/events/representations.js';
import type { TriggerOptions, TriggerType } from './api/events/trigger.js';
import { removeAssetsWithoutBytes } from './api/themes/asset.js';
import { isFirstProcess, listenOn } from './cluster/worker.js';
import { addressesOf } from './core/addresses.js';
import { createCore } from './core/index.js';
import type { Clock } from './core/types.js';
import { type DemoOptions, type ServerCredentials, upgradeExisting } from './demo-credentials.js';
import { EXPLORER_CLIENT_ID, EXPLORER_PATH, registerExplorerClient } from './explorer/client.js';
import { createExplorerHandler } from './explorer/handler.js';
import { checkTrustedProxies } from './express/forwarded-for.js';
import { createHttpServer } from './express/http-server.js';
import { createRequestListener } from './express/request-listener.js';
import type { ServerTimeouts } from './express/timeouts.js';
import { withHealth } from './health.js';
import { RateLimiter, type RateLimitPolicy, rateLimitOption } from './http/rate-limit.js';
import { tokenTtlOf } from './oauth/token-ttl.js';
import { controlTokenProblem, newControlToken } from './sandbox/control-token.js';
import { CONTROL_PATH } from './sandbox/operations.js';
import type { DemoCredentials } from './seed/index.js';
import { createJsonStore } from './store/json/json-file.js';
import { createMemoryStore } from './store/memory.js';
import { isPostgresUrl, withoutPassword } from './store/postgres/postgres-url.js';
import type { Dataset, Store } from './store/types.js';
import type { Deliverer, WebhookSender } from './webhooks/deliverer.js';
import { nodeWebhookSender } from './webhooks/node-sender.js';

/** Options of {@link createServer}. Every field is optional. */
export interface ServerOptions {
  /** TCP port; 0 picks a free one. Default 4000. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /**
   * Where the data lives: a JSON file path (created and seeded when missing, see `createJsonStore`),
   * a ready {@link Dataset} (kept in memory), or a ready {@link Store}. Default: seeded demo data in memory.
   * A JSON file path is locked while the server runs: another process that has it open makes `createServer`
   * reject with a `StoreLockedError`. A path only: a PostgreSQL URL here is a `TypeError` (it goes in `store`).
   */
  data?: string | Partial<Dataset> | Store;
  /**
   * A shared store in place of `data`: a PostgreSQL URL (`postgres://user@host/db`, `?schema=name` for a schema
   * other than `storefront`; migrated, and seeded when it holds no data, see `createPostgresStore`) or a ready
   * {@link Store}. Several processes and hosts may serve one database at once.
   */
  store?: string | Store;
  /** Re-seed the JSON file (or the PostgreSQL schema) even if it holds data. */
  reset?: boolean;
  /** Products to seed when seeding. Default 300. */
  products?: number;
  /**
   * Origin clients reach the server at (behind a proxy), e.g. `https://shop-api.example`; links and
   * token URLs use it. Default: the listening address.
   */
  publicUrl?: string;
  /**
   * Reverse proxies (IP addresses, or `loopback`) whose `X-Forwarded-For` tells the client's address, which
   * failed logins are counted by. Default: none, every request is counted by the address it came from.
   */
  trustProxy?: readonly string[];
  /** Lifetime of access tokens, in seconds. Default 3600. */
  tokenTtl?: number;
  /** Source of the current time (tests move it by hand). Default `Date.now`. */
  clock?: Clock;
  /**
   * Fixed demo credentials. When seeding they go into the seed; over existing data the given ones
   * replace those of the demo app and user (the first app and its owner).
   */
  demo?: DemoOptions;
  /**
   * Redirect URIs the demo app accepts besides its registered ones while this server runs, e.g. a dev server's
   * `http://192.168.1.20:5173/callback` (in its code flow with PKCE, the demo app, a native app, already takes
   * any port of `http://localhost/callback` and `http://127.0.0.1/callback`).
   */
  redirectUris?: readonly string[];
  /** Receives one line per request; `true` logs to stdout. Default: no request log. */
  log?: boolean | ((line: string) => void);
  /** How long to wait for clients' headers, whole requests and idle keep-alive connections. */
  timeouts?: ServerTimeouts;
  /**
   * Serve the API explorer at `{origin}/explorer` and link it from the root. Default true. Off, the root is what
   * the MSW handlers answer (they serve no explorer), and no explorer client is registered.
   */
  explorer?: boolean;
  /** How webhooks are delivered (see docs/server.md, "Webhooks"). */
  webhooks?: ServerWebhookOptions;
  /**
   * Serve the control API at `{origin}/_sandbox` (reset, snapshots, the clock, the request journal: see
   * docs/server.md, "Steering the sandbox"), guarded by a bearer token: the one given, else a random one
   * (`server.control.token`). Default off: the path is then a 404 like any unknown one. A server that starts a
   * fleet on its store (alone, or as its first worker) clears the fault rules, the clock and the rate limit a
   * previous run left and takes the data as it finds it for its reset point; `join` keeps those of a fleet already
   * serving the same database (a server started on another host).
   */
  control?: boolean | { token?: string; join?: boolean };
  /**
   * A rate limit per app and user: `"120/60s"` (or `{ quota, windowSeconds }`), requests per fixed window. Every
   * answer to a request with a valid token then carries `RateLimit-Policy` and `RateLimit`
   * (draft-ietf-httpapi-ratelimit-headers), and a request past the quota is a 429 with `Retry-After`. On PostgreSQL
   * the processes sharing the database count together. Default: none, as the API states none; the control API
   * changes it while the server runs (docs/server.md, "Rate limits").
   */
  rateLimit?: string | RateLimitPolicy;
}

/** Where a server's control API is, and the token it takes. */
export interface ServerControl {
  /** `{origin}/_sandbox` */
  url: string;
  /** Sent as `Authorization: Bearer {token}`. */
  token: string;
  /** Whether it kept the sandbox state of a fleet already serving its store (`control.join`), not started anew. */
  joined: boolean;
}

/** Options of webhook delivery. */
export interface ServerWebhookOptions {
  /**
   * Hosts (names or literal addresses) that may be targets although they are loopback, private or link-local. A
   * server listening on loopback delivers anywhere; one listening on another interface refuses those unless
   * allowed here.
   */
  allow?: readonly string[];
  /** Attempts in flight at most. Default 8. */
  concurrency?: number;
  /** Replaces the HTTP sender (tests). */
  send?: WebhookSender;
}

/** An event as `GET svc:event` shows it (`server.trigger`). */
export type TriggeredEvent<T extends TriggerType = TriggerType> = EventFields<T> & {
  _class: ['event'];
  _links: Record<string, { href: string }>;
};

/** A running reference server. */
export interface StorefrontServer {
  /** Where it listens, e.g. `http://127.0.0.1:4000`. */
  url: string;
  /** Origin as clients see it: `publicUrl`, else `url`. The token endpoint is `{origin}/oauth/token`. */
  origin: string;
  /** The API root, `{origin}/v1`. */
  baseUrl: string;
  /** The API explorer, `{origin}/explorer`: a page to sign in and click through the API; unset when turned off. */
  explorerUrl: string | undefined;
  store: Store;
  /** The demo app and user; `undefined` when the data holds no app. */
  credentials: ServerCredentials | undefined;
  /** The control API; `undefined` unless `control` was asked for. */
  control: ServerControl | undefined;
  /** Whether this start seeded the data (in memory, or a JSON file that was missing or reset). */
  seeded: boolean;
  /**
   * The webhook delivery loop: `drain()` makes every attempt due on the server's clock and resolves once none is
   * left, so that a test that moved the clock need not wait.
   */
  webhooks: Pick<Deliverer, 'drain'>;
  /**
   * Creates or changes the real product or order that `type` (`product.created`, `product.updated`,
   * `order.created`, `order.updated`) reports, in one write with its event, and resolves with the event as
   * `GET svc:event` shows it: a later GET of its subject answers the `etag` in its `data`. Rejects with a
   * `TriggerError` (nothing written) for an unknown type, shop, id or `set` field (`storefront-server trigger`).
   */
  trigger<T extends TriggerType>(type: T, options: TriggerOptions): Promise<TriggeredEvent<T>>;
  /** Stops listening, lets in-flight requests finish, then closes the store (unless it was given ready). */
  close(): Promise<void>;
}

const DEFAULT_PORT = 4000;
const DEFAULT_HOST = '127.0.0.1';

function isStore(data: ServerOptions['data']): data is Store {
  return typeof data === 'object' && data !== null && typeof (data as Store).write === 'function';
}

function listeningOrigin(address: AddressInfo): string {
  const host =
    address.address === '0.0.0.0'
      ? '127.0.0.1'
      : address.address === '::'
        ? '[::1]'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
  return `http://${host}:${address.port}`;
}

/** Whether the server listens on the loopback interface only (an IPv4 127/8 or the IPv6 `::1` address). */
function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '::1' || address === '::ffff:127.0.0.1';
}

function checkOptions(options: ServerOptions): void {
  const { port } = options;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  tokenTtlOf(options.tokenTtl);
  checkTrustedProxies(options.trustProxy ?? []);
  rateLimitOption('rateLimit', options.rateLimit);
}

interface OpenedData {
  store: Store;
  ownsStore: boolean;
  seeded: boolean;
  credentials: ServerCredentials | undefined;
}

async function openData(options: ServerOptions): Promise<OpenedData> {
  const { demo = {} } = options;
  if (options.store !== undefined && options.data !== undefined) {
    throw new TypeError('Give either `store` or `data`, not both');
  }
  if (typeof options.store === 'string' && !isPostgresUrl(options.store)) {
    throw new TypeError(`store must be a postgres:// URL or a Store, got "${withoutPassword(options.store)}"`);
  }
  // One way to open each store: a database given as `data` would open without anyone having asked for a shared one.
  if (typeof options.data === 'string' && isPostgresUrl(options.data)) {
    throw new TypeError(
      `data takes a JSON file path; a PostgreSQL database goes in the store option: createServer({ store: "${withoutPassword(options.data)}" })`,
    );
  }
  const data = options.store ?? options.data;
  // The seed loads only when data is created: a start on existing data does not pay for it.
  const fresh = async () =>
    (await import('./seed/index.js')).seed({
      ...demo,
      ...(options.products === undefined ? {} : { products: options.products }),
    });
  if (data === undefined) {
    const { dataset, credentials } = await fresh();
    return { store: createMemoryStore(dataset), ownsStore: true, seeded: true, credentials };
  }
  if (typeof data === 'string') {
    let seeded: DemoCredentials | undefined;
    // The PostgreSQL store and its driver load only for a database: a start on a JSON file does not pay for them.
    const open =
      data === options.store ? (await import('./store/postgres/postgres.js')).createPostgresStore : createJsonStore;
    const store = await open(data, {
      reset: options.reset,
      initial: async () => {
        const result = await fresh();
        seeded = result.credentials;
        return result.dataset;
      },
    });
    if (seeded) return { store, ownsStore: true, seeded: true, credentials: seeded };
    try {
      // Data on disk may have been damaged by hand or by a crash under an older version: its owner is told.
      await removeAssetsWithoutBytes(store, (line) => console.warn(`storefront-server: ${line}`));
      return { store, ownsStore: true, seeded: false, credentials: await upgradeExisting(store, demo) };
    } catch (error) {
      // Closing releases the data's lock, which would otherwise keep this process's own next attempt out.
      await store.close();
      throw error;
    }
  }
  if (isStore(data))
    return { store: data, ownsStore: false, seeded: false, credentials: await upgradeExisting(data, demo) };
  const store = createMemoryStore(data);
  return { store, ownsStore: true, seeded: false, credentials: await upgradeExisting(store, demo) };
}

/** Listens on `port` of `host`, or on a fleet's socket in a later worker (see `cluster/worker.ts`). */
async function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  await listenOn(server, port, host);
  return server.address() as AddressInfo;
}

/** Stops listening and drops every connection: for a start that failed, whose requests nobody will answer. */
function abandon(server: Server): Promise<void> {
  return new Promise((closed) => {
    server.close(() => closed());
    server.closeAllConnections();
  });
}

/** The control API's token, when it is on. */
function controlOf(option: ServerOptions['control']): { token: string; join: boolean } | undefined {
  if (!option) return undefined;
  const { token, join = false } = option === true ? {} : option;
  const problem = token === undefined ? undefined : controlTokenProblem(token);
  if (problem) throw new TypeError(`control.token ${problem}`);
  return { token: token ?? newControlToken(), join };
}

/** Starts the reference server. */
export async function createServer(options: ServerOptions = {}): Promise<StorefrontServer> {
  checkOptions(options);
  const control = controlOf(options.control);
  // Checked before anything starts; the listening address is known only once listening.
  const published = options.publicUrl === undefined ? undefined : addressesOf(options.publicUrl, 'publicUrl');
  const http = createHttpServer(options.timeouts);
  // Requests that arrive while the data opens wait for the app; while closing, they are answered with
  // `Connection: close` on keep-alive connections, so that those end with their response instead of idling
  // until their timeout and holding `close()` open.
  const active = new Set<ServerResponse>();
  const early: [IncomingMessage, ServerResponse][] = [];
  let app: RequestListener | undefined;
  // Aborted at `close()`: the core lets go what it holds on purpose (CoreContext.stopping).
  const stopping = new AbortController();
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (stopping.signal.aborted) res.setHeader('connection', 'close');
    active.add(res);
    res.once('close', () => active.delete(res));
    if (app) app(req, res);
    else early.push([req, res]);
  });
  const listening = () => listen(http, options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST);
  // Listening comes first, so that a port in use fails the start before the data is created, seeded or
  // changed: a seeded password nobody saw printed would be lost with it. Not in a fleet's later worker: the
  // socket is the fleet's, bound already, and listening would take connections from the other workers that this
  // one would hold while its data opens, and drop if it fails to open.
  const boundFirst = isFirstProcess() ? await listening() : undefined;
  let opened: OpenedData;
  try {
    opened = await openData(options);
  } catch (error) {
    await abandon(http);
    throw error;
  }
  let address: AddressInfo;
  try {
    address = boundFirst ?? (await listening());
  } catch (error) {
    if (opened.ownsStore) await opened.store.close();
    throw error;
  }
  const url = listeningOrigin(address);
  const addresses = published ?? addressesOf(url);
  const withExplorer = options.explorer ?? true;
  const explorerUrl = withExplorer ? `${addresses.origin}${EXPLORER_PATH}` : undefined;
  const baseClock = options.clock ?? { now: () => Date.now() };
  const webhookTargets = { restricted: !isLoopback(address.address), allow: options.webhooks?.allow ?? [] };
  const startLimit = rateLimitOption('rateLimit', options.rateLimit);
  // The control API's modules load only when it is on: a server without it does not pay for them at its start.
  const controlApi = control ? await import('./sandbox/server-control.js') : undefined;
  // The sandbox's clock, and the rate limit set through the control API for every process of the store, only when
  // they can be steered: otherwise the given clock is the core's, untouched, and the limit the one given here.
  const settings = controlApi?.controlSettings(opened.store, baseClock, startLimit);
  const clock = settings?.clock ?? baseClock;
  const rateLimit = new RateLimiter(
    settings ? () => settings.rateLimit.get() : () => startLimit,
    clock,
    opened.store.rateCounts,
  );
  const core = createCore(
    {
      store: opened.store,
      clock,
      addresses,
      tokenTtl: tokenTtlOf(options.tokenTtl),
      explorerUrl,
      redirectUris: options.redirectUris,
      webhookTargets,
      rateLimit,
      stopping: stopping.signal,
    },
    {
      webhooks: {
        send: options.webhooks?.send ?? nodeWebhookSender(webhookTargets),
        ...(options.webhooks?.concurrency === undefined ? {} : { concurrency: options.webhooks.concurrency }),
      },
    },
  );
  const webhooks = core.webhooks!;
  const log = options.log === true ? (line: string) => console.log(line) : options.log || undefined;
  const explorer = withExplorer
    ? createExplorerHandler({ baseUrl: addresses.baseUrl, authUrl: addresses.authUrl, clientId: EXPLORER_CLIENT_ID })
    : undefined;
  try {
    // Its redirect URIs need the origin, known only once listening; before the first request is served, so that
    // the explorer's sign-in works from the start.
    if (withExplorer) await registerExplorerClient(opened.store, addresses.origin);
  } catch (error) {
    await abandon(http);
    if (opened.ownsStore) await opened.store.close();
    throw error;
  }
  let handle = core.handle;
  if (controlApi && settings && control) {
    try {
      handle = await controlApi.withControl({ core, webhooks, settings, addresses, ...control });
    } catch (error) {
      await abandon(http);
      if (opened.ownsStore) await opened.store.close();
      throw error;
    }
  }
  app = withHealth(
    opened.store,
    createRequestListener({
      handle,
      origin: addresses.origin,
      explorer,
      trustProxy: options.trustProxy ?? [],
      stopping: stopping.signal,
      ...(log ? { log } : {}),
    }),
  );
  for (const [req, res] of early.splice(0)) app(req, res);

  let closing: Promise<void> | undefined;
  return {
    url,
    origin: addresses.origin,
    baseUrl: addresses.baseUrl,
    explorerUrl,
    store: opened.store,
    credentials: opened.credentials,
    control: control && { url: `${addresses.origin}${CONTROL_PATH}`, token: control.token, joined: control.join },
    seeded: opened.seeded,
    webhooks: { drain: () => webhooks.drain() },
    async trigger(type, triggerOptions) {
      // Through the core's context, whose store wakes the delivery loop and the long-polls once the write is done.
      // Imported at the first trigger: a start does not pay for it.
      const { triggerEvent } = await import('./api/events/trigger.js');
      const event = await triggerEvent(core.context, type, triggerOptions);
      return eventResource(addresses, event) as unknown as TriggeredEvent<typeof type>;
    },
    close() {
      stopping.abort();
      for (const res of active) if (!res.headersSent) res.setHeader('connection', 'close');
      closing ??= new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections with no request in flight would hold `close` open for their timeout.
        http.closeIdleConnections();
      })
        .then(() => webhooks.close())
        .then(() => (opened.ownsStore ? opened.store.close() : undefined));
      return closing;
    },
  };
}
