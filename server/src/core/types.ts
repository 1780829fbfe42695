/**
 * The shape of the one server core that Express and MSW both wrap. It is deliberately leaner than
 * `Request`/`Response` so that the Express shell pays no conversion cost on the hot path; `toFetchHandler`
 * gives the fetch-standard `(request: Request) => Promise<Response>` form.
 */
import type { Scope } from '@storefront-platform/sdk/internal';
import type { Store } from '../store/types.js';
import type { TargetPolicy } from '../webhooks/targets.js';

/** Request headers, by case-insensitive name (`Headers` satisfies this). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A request as the core sees it: what both shells (Express, MSW) hand over. */
export interface CoreRequest {
  /** Upper-case method. */
  method: string;
  /** Absolute URL as the client sent it. */
  url: URL;
  headers: HeaderReader;
  /** The body's bytes (empty when none). Read at most once. */
  body(): Promise<Uint8Array>;
  /**
   * The address of the peer that sent the request (the socket's remote address), which failed logins are
   * counted by. Absent where there is none: under MSW every request comes from the test or the page itself.
   */
  clientAddress?: string;
  /** Filled in by the core as it learns them, when the shell passes one: the sandbox's request journal reads it. */
  trace?: RequestTrace;
  /**
   * Set by a layer in front of the core that awaited `store.sync()` after the request arrived (the sandbox's fault
   * rules and journal read the store first): the core does not read the write counter a second time.
   */
  caughtUp?: boolean;
}

/** What the core learnt of a request: the route that matched and the caller behind its token. */
export interface RequestTrace {
  /** `GET /v1/shops/:shop_id/products`, or `oauth /oauth/token`; absent: no route matched. */
  route?: string;
  appId?: string;
  userId?: string;
  /** The id of the sandbox's fault rule that hit the request, when one did. */
  fault?: string;
  /** The request's id, as its answer's `X-Request-Id` gives it (`request-id.ts`); absent: no answer was made. */
  requestId?: string;
}

/** The core's answer, written back by the shell (which may compress it). */
export interface CoreResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /**
   * The representation's bytes, also for a HEAD request: the shell sends none, but sets the headers a GET would
   * get (`Content-Length`, and those of the gzip coding it would choose).
   */
  body?: string | Uint8Array;
}

/** The one server core: every route, header and error of the API is decided here. */
export type CoreHandler = (request: CoreRequest) => Promise<CoreResponse>;

/** Milliseconds since the epoch; injectable so that tests can move time. */
export interface Clock {
  now(): number;
}

/** Where the server is reached, as clients see it (may be a public URL behind a proxy). */
export interface Addresses {
  /** e.g. `http://localhost:4000`, no trailing slash. */
  origin: string;
  /** `{origin}/v1` */
  baseUrl: string;
  /** `{origin}` */
  authUrl: string;
  /** `{origin}/static` */
  staticUrl: string;
}

/** Everything a part of the core needs. */
export interface CoreContext {
  store: Store;
  clock: Clock;
  addresses: Addresses;
  /** Lifetime of issued access tokens, in seconds. */
  tokenTtl: number;
  /**
   * Where the API explorer is, when a shell serves one (the Express shell of `createServer` does, MSW does not):
   * the root links it as `service-doc`.
   */
  explorerUrl?: string;
  /**
   * Redirect URIs the data's demo app accepts besides its registered ones, for as long as this core runs (a dev
   * server's address: `storefront-server --redirect-uri`).
   */
  redirectUris?: readonly string[];
  /** Which webhook targets are refused (a server beyond loopback); absent: none. */
  webhookTargets?: TargetPolicy;
  /**
   * Aborts when the server starts to stop (the shell's `close()`): what holds a request on purpose (an event
   * long-poll, a fault rule's delay) lets it go at once, so that a stop waits for no such wait.
   */
  stopping?: AbortSignal;
  /**
   * Signals written events to long-polling requests of the event list; the core sets it (see `core/index.ts`).
   */
  events?: EventSignal;
  /** The sandbox's rate limit per app and user (`http/rate-limit.ts`); absent: none. */
  rateLimit?: RequestLimiter;
  /**
   * The id of the request this context serves (`X-Request-Id`, `request-id.ts`), set in each call's context by the
   * pipeline: the events its writes record carry it, so that a delivery names the write that caused it. Absent in
   * the core's own context and outside requests (a trigger, the delivery loop).
   */
  requestId?: string;
}

/** Counts the requests of callers against a limit (the sandbox's rate limit, `http/rate-limit.ts`). */
export interface RequestLimiter {
  /**
   * Counts a request of `principal`: resolves with the fields its answer carries (`undefined`: none), or rejects
   * with the `HttpError` 429 that answers it.
   */
  take(principal: Principal): Promise<Record<string, string> | undefined>;
}

/** Wakes what waits for events. */
export interface EventSignal {
  /**
   * Resolves once events are written by this process, or after `timeoutMs`, or when the server starts to stop
   * (`CoreContext.stopping`), whichever comes first.
   */
  next(timeoutMs: number): Promise<void>;
}

/** The caller behind a valid bearer token. */
export interface Principal {
  tokenId: string;
  userId: string;
  appId: string;
  scopes: Scope[];
}
