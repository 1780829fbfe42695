import type { AuthStrategy } from './auth/types.js';
import { createHttpCache } from './cache/http-cache.js';
import type { HttpCache } from './cache/types.js';
import type { HalResource } from './contract/index.js';
import { bodyLimit } from './http/body-limit.js';
import { createClientKy, type KyHooks, type KyInstance, type RetryOptions } from './http/client-ky.js';
import { type ClientEventHandlers, type ClientEventListener, type ClientEventName, Emitter } from './http/events.js';
import { Transport } from './http/transport.js';
import { createRateBudget, type RateBudget } from './pacing/index.js';
import { Curies } from './resource/curies.js';
import type { Entity, FollowPromise } from './resource/entity.js';
import { followPromise } from './resource/follow-promise.js';
import { halProblem } from './resource/hal-check.js';
import { Navigator } from './resource/navigator.js';
import type { Root } from './resource/representations.js';

/**
 * Options of {@link createClient}. Requests go through ky: `fetch`, `timeout`, `retry` and `hooks` are ky's options,
 * and `ky` takes an instance of your own, for logging, tracing headers or a proxy.
 */
export interface ClientOptions {
  /** The API root (`{base_url}`, e.g. `https://api.example.com/v1`): the only URL the client is given. */
  baseUrl: string | URL;
  /**
   * The `fetch` each attempt ends in (tests, proxies, instrumentation), called the way ky calls it: with a `Request`,
   * and as second argument the options ky does not know (undici's `dispatcher`, for one). The auth strategy's token
   * requests use it too, unless the strategy has a `fetch` of its own. Default: the `fetch` of `ky` when it has one,
   * else the global `fetch`, looked up at each call.
   */
  fetch?: typeof fetch;
  /** How requests are authenticated; without it no `Authorization` header is sent. */
  auth?: AuthStrategy;
  /**
   * Origins that get the credentials of `auth` besides the API's (that of `baseUrl`) and the token endpoint's (that
   * of the strategy's `authUrl`); an entry may be a URL, of which the origin counts. `Authorization` goes to those
   * origins only: a link to any other (an asset on a CDN, a page elsewhere) is followed without credentials, cached
   * in the anonymous partition, and a 401 from it is not refreshed. A redirect to another origin drops the header
   * too (fetch does, per the Fetch standard). Default: none besides those two.
   */
  trustedOrigins?: (string | URL)[];
  /**
   * HTTP cache of GET responses, revalidated with `If-None-Match` / `If-Modified-Since` and answered from the store
   * on a 304, in partitions per token owner. Default: an in-memory cache of this client, `createHttpCache()`
   * (500 entries, 5 MiB). `false`: none, every GET is answered in full.
   */
  cache?: HttpCache | false;
  /** Event listeners, as a shorthand for `client.on(...)`. */
  on?: ClientEventHandlers;
  /** `User-Agent` to send (browsers may ignore it). Default: the platform's. */
  userAgent?: string;
  /**
   * The most bytes the client reads of one answer's body, named after undici's option of the same meaning: past it
   * the request fails with a `ResponseTooLargeError`, at once when `Content-Length` declares more, else as soon as
   * the bytes read pass it (counted decoded, so a compressed answer counts at its size once read), the rest left
   * unread and the connection closed; never retried. A non-JSON answer handed to you unread (an HTML page, a file)
   * errors the same way while you read it. An error answer's body is read up to 10 MiB at most, whatever this says.
   * `false`: no limit. Default: 64 MiB (eight answers at once fit in 512 MB), and for the relations whose answer may
   * be a whole theme (`svc:theme`, `svc:dev_theme`, `svc:create_dev_theme`, `svc:update_theme`, `svc:subject`, a
   * theme's `self`) the largest theme the API sends, about 380 MiB (1000 templates of 64 KiB embedded, each byte
   * escaped by JSON as six at worst).
   */
  maxResponseSize?: number | false;
  /**
   * Limit per attempt in ms, covering the response and a JSON body; `false` (or 0) disables it. Default: the
   * `timeout` of `ky` when it has one, else 30 000 (not ky's 10 000). Token requests are bounded by the `timeout` of
   * the `auth` strategy (same default).
   */
  timeout?: number | false;
  /**
   * Retries of idempotent requests (GET, HEAD, PUT, DELETE, OPTIONS) and of POSTs, each sent with one
   * `Idempotency-Key` for all its attempts (a keyed POST's 409 is retried too), after a network error, a timeout or
   * a 408, 429, 500, 502, 503 or 504: ky's `retry`, a number of retries, or `false` for none. Default: 2 retries, 300 ms then
   * doubling, or after the server's `Retry-After` on any of those statuses; waits capped at 30 s (`backoffLimit`,
   * `maxRetryAfter`); timeouts retried (`retryOnTimeout`). Fields not given keep those defaults, over the `retry` of
   * `ky`. Only failed attempts are retried, never an error thrown by a hook, whatever `shouldRetry` says. The attempt
   * after a token refresh (on a 401) is not one of the retries: it is made with `retry: 0` too.
   */
  retry?: RetryOptions | number | false;
  /**
   * Pacing by the server's rate limit (the `RateLimit` and `RateLimit-Policy` fields of
   * draft-ietf-httpapi-ratelimit-headers): a request with credentials waits, before it is sent, until its token
   * owner's budget has room, so that a burst of queued requests meets no 429. Default: a budget of this client,
   * `createRateBudget()` (pass one to several clients of one app and user to share it); `createRedisRateBudget` (`@storefront-platform/sdk/redis`) shares one across a fleet.
   * `false`: none. Against a server that sends no such fields, only the first request waits for nothing but its own
   * answer. Retries are not paced: they wait as `retry` says (a 429's `Retry-After`). See docs/sdk.md, "Rate limits".
   */
  pacing?: RateBudget | false;
  /**
   * ky hooks for every request of this client, after those of `ky`, in the form of its ky (see `KyHooks`).
   * `beforeRequest` hooks run on every attempt (ky 2: every call), retries and the attempt after a token refresh
   * included, with the client's headers set (`Authorization`, conditional headers). In hooks, failures are ky's
   * (`HTTPError`, `TimeoutError`); the client's promises reject with the SDK's typed errors.
   */
  hooks?: KyHooks;
  /**
   * Your own ky instance (`ky.create(…)` or `.extend(…)`), of ky 1.14+ or ky 2 (see `KyInstance`), which the client
   * extends: its headers, hooks, `fetch`, `timeout` and `retry` apply unless the options above say otherwise. The
   * client decides which statuses fail (all but 2xx and 304) and sends to the links' absolute URLs (no prefix, no
   * `searchParams`).
   */
  ky?: KyInstance;
}

/** A client of one API root. */
export interface Client {
  /**
   * The root resource at `baseUrl`: where every navigation starts. Requested at once; the promise follows on in
   * the same await, one request per hop: `await client.root().follow('svc:shops')` (see `FollowFurther`).
   */
  root(options?: { signal?: AbortSignal }): FollowPromise<Root>;
  /**
   * An entity again from a document saved with its `toJSON()` and the URL it was read from (relative links resolve
   * against it): its links work as they did, without a request. For state kept between runs (a bookmark, a
   * manifest). The type parameter says which entity it is, as the contract would (`client.restore<Template>(…)`);
   * nothing checks the document against it, but a document that is no HAL resource at all is a `TypeError`. A
   * results page comes back as `Results`.
   */
  restore<E = Entity>(document: HalResource, url: string): E;
  /** Subscribes to an event; returns the function that unsubscribes. */
  on<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): () => void;
  /** Unsubscribes `listener` from the event, as the function returned by `on` does; unknown listeners are ignored. */
  off<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): void;
}

/** Creates a client for the API at `options.baseUrl`. */
export function createClient(options: ClientOptions): Client {
  const emitter = new Emitter();
  for (const [name, listener] of Object.entries(options.on ?? {})) {
    if (listener) emitter.on(name as ClientEventName, listener as ClientEventListener<ClientEventName>);
  }
  // The API asks clients to cache (spec §4.4): one is there unless refused.
  const cache = options.cache === false ? undefined : (options.cache ?? createHttpCache());
  cache?.onStoreError?.((error) => emitter.emit('cache:error', { error }));
  const { auth } = options;
  const baseUrl = new URL(options.baseUrl).href;
  const trusted = new Set<string | undefined>(
    [baseUrl, ...(options.trustedOrigins ?? [])].map((url) => new URL(url).origin),
  ).add(auth?.origin);
  const maxResponseSize = bodyLimit(options.maxResponseSize);
  const http = createClientKy(options);
  const pacing = options.pacing === false ? undefined : (options.pacing ?? createRateBudget());
  const navigator = new Navigator(
    new Transport({ http, emitter, auth, trusted, cache, userAgent: options.userAgent, maxResponseSize, pacing }),
  );

  const readRoot = async (signal?: AbortSignal): Promise<Root> => {
    const reply = await navigator.send({ method: 'GET', url: baseUrl, signal });
    const root = navigator.read(reply);
    if (root === undefined) throw navigator.invalid(reply, 'an empty body, where the API root was expected');
    return root as Root;
  };

  return {
    root: ({ signal } = {}) => followPromise(readRoot(signal)) as FollowPromise<Root>,
    restore: <E>(document: HalResource, url: string) => {
      // A saved entity may have been an embedded one, which needs no `_links`.
      const problem = halProblem(document, false);
      if (problem) throw new TypeError(`restore: ${problem}`);
      return navigator.entity(document, new URL(url).href, Curies.none) as E;
    },
    on: (name, listener) => emitter.on(name, listener),
    off: (name, listener) => emitter.off(name, listener),
  };
}
