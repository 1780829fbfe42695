import { isHTTPError } from 'ky';
import type { AuthStrategy, Credentials } from '../auth/types.js';
import { selfHref } from '../cache/invalidation-tags.js';
import type { CacheEntry, HttpCache } from '../cache/types.js';
import { conditionalHeaders, isAbout, isStorable, revalidated, revalidationChanged } from '../cache/validators.js';
import { InvalidResponseError } from '../errors/invalid-response-error.js';
import { redactHeaders, redactUrl, USERINFO } from '../errors/redact.js';
import { ResponseTooLargeError } from '../errors/response-too-large-error.js';
import { type RateBudget, readRateLimit, waitForBudget } from '../pacing/index.js';
import { encodeBase64Url } from '../shared/base64.js';
import { utf8Length } from '../shared/utf8-length.js';
import {
  type BodyLimit,
  DEFAULT_MAX_RESPONSE_SIZE,
  limitBody,
  limitOf,
  MAX_THEME_DOCUMENT_BYTES,
  requestLimit,
} from './body-limit.js';
import { type ClientKy, isFailure, type KyCallOptions, type KyRetryState } from './client-ky.js';
import type { Emitter } from './events.js';
import { isAttemptFailure, isAttemptTimeout, networkFailure, responseError, typedFailure } from './failures.js';
import { headerRecord, isJsonType } from './media-type.js';
import { bodyText, withText } from './response-body.js';
import { backoff } from './retry.js';
import { readRetryAfter } from './retry-after.js';

/** Cache partition of requests sent without credentials. */
const ANONYMOUS = 'anonymous';
const DEFAULT_ACCEPT = 'application/hal+json, application/json';

/**
 * How the transport is wired; built by `createClient`. No clock: the transport's time is ky's, which waits a
 * `Retry-After` date against `Date.now()`, so the `retry` event reads it on that clock too, and cache entries are
 * dated on it (`storedAt`, for stores that expire entries).
 */
export interface TransportOptions {
  http: ClientKy;
  emitter: Emitter;
  auth?: AuthStrategy;
  /** Origins that get the credentials of `auth` (the API's, the token endpoint's, the app's `trustedOrigins`). */
  trusted: Set<string | undefined>;
  cache?: HttpCache;
  userAgent?: string;
  /** The most bytes read of one body (`ClientOptions.maxResponseSize`); `undefined` for the defaults. */
  maxResponseSize?: BodyLimit;
  /** The rate budgets requests with credentials are paced by (`ClientOptions.pacing`); absent: none. */
  pacing?: RateBudget;
}

/** Asks for the `ETag` of the client's cached copy of the request's URL as `If-Match` (a `TypeError` when not cached). */
export const IF_MATCH_CACHED: unique symbol = Symbol('If-Match from the cache');

/** `If-Match` of a write: the entity tag to send, or {@link IF_MATCH_CACHED}. */
export type IfMatch = string | typeof IF_MATCH_CACHED;

/** One logical request (the transport may send it several times). */
export interface TransportRequest {
  /** Any case; sent upper-case. */
  method: string;
  /** Absolute URL. */
  url: string;
  /** Sent as JSON when defined. */
  body?: unknown;
  /** Overrides the default `Accept` (`application/hal+json, application/json`). */
  accept?: string;
  /** Sent as `If-Match`; the entity decides which tag (see `FollowOptions.ifMatch`). */
  ifMatch?: IfMatch;
  signal?: AbortSignal;
  /** The most bytes read of this answer, when fewer than the client's (see `FollowOptions.maxResponseSize`). */
  maxResponseSize?: number;
  /** The answer may be a whole theme: a client that sets no limit reads up to `maxThemeDocumentBytes()` of it. */
  theme?: boolean;
  /** A POST's `Idempotency-Key` (see `FollowOptions.idempotencyKey`); absent: a new one for this request. */
  idempotencyKey?: string;
}

/** What a request resolved to. */
export interface Reply {
  /** Upper-case method sent. */
  method: string;
  /** URL of the response (after redirects), against which relative links resolve. */
  url: string;
  /** 2xx; a 304 answered from the cache reports the stored status (200). */
  status: number;
  headers: Headers;
  /** The parsed body when it is JSON; `undefined` when empty or not JSON. */
  data: unknown;
  /** The response with its body unread when the body is not JSON (an HTML page, an image). */
  document?: Response;
  /** True when the server answered 304 and the body came from the cache. */
  revalidated: boolean;
}

/** One logical request on its way: what its attempts share. */
interface Exchange {
  /** Upper-case. */
  method: string;
  url: string;
  signal?: AbortSignal;
  /** The most bytes read of each answer: the client's limit, or the request's when lower. */
  limit: BodyLimit;
  /** Attempts sent so far, the one after a refresh included. */
  attempts: number;
  /** Retries ky made so far; the attempt after a refresh is not one of them. */
  retries: number;
  /** Whether a 401 is answered by a refresh: sent with credentials of a strategy that can refresh, not yet refreshed. */
  refreshable: boolean;
  /** The typed error of the last attempt ky retried. */
  failure?: unknown;
  /** A POST's `Idempotency-Key`, as sent on each of its attempts: which makes its retries safe. */
  idempotencyKey?: string;
  /** The owner whose rate budget the answers tell of: set when the request is paced. */
  paced?: string;
}

/**
 * Sends requests the way the API expects, through the client's ky instance: credentials from the auth strategy,
 * conditional GETs from the HTTP cache, one more attempt after a refreshed token, ky's retries of idempotent
 * requests and its timeout per attempt, typed errors, and events for each step. Without `auth` or `cache` those
 * steps are skipped.
 *
 * ky sends each logical request once, or twice when a 401 is answered by a refresh: that attempt is a second call,
 * so that it neither uses up nor needs one of ky's retries. The client's part of an attempt runs where ky gives it
 * the request alone, in the call's options: the headers, the `fetch` ky calls (events, the body read within the
 * timeout), `shouldRetry` (only failed attempts are retried, never an error a hook threw). Instance hooks would
 * share a list in which a hook that returns a `Request` skips the rest, and cost a copy of each response.
 */
export class Transport {
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  async request(request: TransportRequest): Promise<Reply> {
    const { auth, cache, emitter, http } = this.#options;
    const method = request.method.toUpperCase();
    if (USERINFO.test(request.url)) {
      // The Request ky builds would refuse it with a message that holds the credentials.
      throw new TypeError(`${method} ${redactUrl(request.url)}: a URL with credentials cannot be requested`);
    }
    // A `URL`, not a string: ky applies no prefix of the user's instance to it.
    const target = new URL(request.url);
    // A link may name any origin: the token goes only where the app sent it (redirects elsewhere drop it: fetch).
    let credentials = this.#options.trusted.has(target.origin)
      ? await auth?.credentials(request.signal, http.fetch)
      : undefined;
    const owner = credentials?.owner ?? ANONYMOUS;
    const limit = requestLimit(
      this.#options.maxResponseSize ?? (request.theme ? MAX_THEME_DOCUMENT_BYTES : DEFAULT_MAX_RESPONSE_SIZE),
      request.maxResponseSize,
    );
    const { pacing } = this.#options;
    const paced = pacing && credentials ? owner : undefined;
    // The first wait for the budget starts beside the cache's lookup: with both in Redis, one round trip, not two.
    let budget = paced ? waitForBudget(pacing!, paced, request.signal) : undefined;
    budget?.catch(() => undefined);
    let stored = cache && method === 'GET' ? await cache.get(owner, request.url) : undefined;
    // A store shared with clients of a higher limit may hold more than this one reads: it asks for the answer anew.
    if (stored && overLimit(stored.body, limit)) stored = undefined;
    const ifMatch =
      request.ifMatch === IF_MATCH_CACHED ? (await cache?.get(owner, request.url))?.headers.etag : request.ifMatch;
    if (request.ifMatch !== undefined && ifMatch === undefined) {
      // Sending nothing would leave the caller believing the write is guarded.
      throw new TypeError(`ifMatch: true needs an ETag of ${redactUrl(request.url)}, and the cache holds none`);
    }
    if (stored) {
      emitter.emit('cache:hit', {
        url: redactUrl(request.url),
        etag: stored.headers.etag,
        lastModified: stored.headers['last-modified'],
      });
    }

    const exchange: Exchange = {
      method,
      url: request.url,
      signal: request.signal,
      limit,
      attempts: 0,
      retries: 0,
      refreshable: credentials !== undefined && auth?.refresh !== undefined,
      paced,
    };
    if (method === 'POST') exchange.idempotencyKey = idempotencyKey(request.idempotencyKey);
    for (;;) {
      let response: Response | undefined;
      try {
        // Before ky's call, whose timeout would count the wait: each logical request once, and once more after a refresh.
        if (paced) await (budget ?? waitForBudget(pacing!, paced, request.signal));
        budget = undefined;
        const headers = this.#headers(request, credentials, stored, ifMatch);
        if (exchange.idempotencyKey) headers['idempotency-key'] = exchange.idempotencyKey;
        response = await http.ky(target, this.#call(exchange, headers, request.body));
      } catch (error) {
        if (exchange.refreshable && isHTTPError(error) && error.response.status === 401) {
          exchange.refreshable = false;
          if (!error.response.bodyUsed) await error.response.body?.cancel().catch(() => {});
          credentials = await auth!.refresh!(credentials!, request.signal, http.fetch);
          emitter.emit('token:refreshed', { method, url: redactUrl(request.url) });
          continue;
        }
        throw await this.#failure(error, exchange);
      }
      // A `beforeRetry` hook returned `ky.stop`: the request ends with the failure it stopped retrying.
      if (!response) throw exchange.failure;
      if (response.status === 304 && stored) {
        if (isAbout(stored, response.headers.get('etag'))) return this.#fromCache(owner, stored, response);
        // RFC 9111 §4.3.4: a 304 naming another representation refreshes nothing; ask for the whole answer.
        stored = undefined;
        continue;
      }
      if (!response.ok) throw await responseError(method, request.url, response, limit);
      // Read within its attempt, unless a hook of the user's answered with a response of its own.
      const text =
        method !== 'HEAD' && isJsonType(response.headers.get('content-type'))
          ? await bodyText(response, limit, exchange)
          : undefined;
      const reply = this.#reply(method, request.url, response, text);
      if (cache) await this.#updateCache(cache, owner, request.url, reply, text);
      return reply;
    }
  }

  #headers(
    request: TransportRequest,
    credentials?: Credentials,
    stored?: CacheEntry,
    ifMatch?: string,
  ): Record<string, string> {
    const headers: Record<string, string> = { accept: request.accept ?? DEFAULT_ACCEPT };
    if (this.#options.userAgent) headers['user-agent'] = this.#options.userAgent;
    if (credentials) headers.authorization = `Bearer ${credentials.token}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (stored) Object.assign(headers, conditionalHeaders(stored));
    if (ifMatch !== undefined) headers['if-match'] = ifMatch;
    return headers;
  }

  /** ky's options for one call: what this request alone has. */
  #call(exchange: Exchange, headers: Record<string, string>, body: unknown): KyCallOptions {
    const { retry } = this.#options.http;
    const options: KyCallOptions = {
      method: exchange.method,
      headers,
      fetch: (input, init) => this.#attempt(exchange, input as Request, init),
      // After a refresh, what is left of the retries: they count for the whole logical request.
      retry: { limit: retry.limit - exchange.retries, shouldRetry: (state) => this.#shouldRetry(exchange, state) },
    };
    if (body !== undefined) options.json = body;
    if (exchange.signal) options.signal = exchange.signal;
    return options;
  }

  /**
   * One attempt, as the `fetch` ky calls: the request as every hook left it, its events, the body read when it is
   * JSON or a failure's (which ky 2 would read for its `HTTPError`'s `data` before the client could).
   */
  async #attempt(exchange: Exchange, request: Request, init?: RequestInit): Promise<Response> {
    const { emitter, http } = this.#options;
    const { method } = exchange;
    const attempt = ++exchange.attempts;
    if (emitter.wants('request')) {
      emitter.emit('request', {
        method,
        url: redactUrl(exchange.url),
        headers: redactHeaders(request.headers),
        attempt,
      });
    }
    const started = performance.now();
    try {
      let answer: Response | undefined;
      try {
        answer = await http.fetch(request, init);
      } finally {
        // No answer (aborted: a React StrictMode remount; or the network) is told too, as telling nothing, so that a
        // probe that never returns does not hold the owner's other requests back.
        const observed =
          exchange.paced &&
          this.#options.pacing!.observe(
            exchange.paced,
            // An answer that went through without fields (`null`): the server limits nothing, or no longer.
            answer && (readRateLimit(answer.headers) ?? (answer.status < 400 ? null : undefined)),
            performance.now() - started,
          );
        // A shared budget that fails (Redis) paces less well; the request itself goes on.
        if (observed) observed.catch(() => undefined);
      }
      const response = limitBody(answer, limitOf(answer.status, exchange.limit), exchange);
      if (emitter.wants('response')) {
        emitter.emit('response', {
          method,
          url: redactUrl(exchange.url),
          status: response.status,
          headers: redactHeaders(response.headers),
          attempt,
          duration: performance.now() - started,
          requestId: response.headers.get('x-request-id') || undefined,
        });
      }
      const read =
        method !== 'HEAD' && (isJsonType(response.headers.get('content-type')) || isFailure(response.status));
      return read ? await withText(response, http.hooksReadBodies) : response;
    } catch (error) {
      // The user gave up: their reason, never retried.
      exchange.signal?.throwIfAborted();
      // No network failure: the same request would bring the same answer, so it fails the request, unretried.
      if (error instanceof ResponseTooLargeError) throw error;
      // Aborted by ky's own timeout, which already failed the attempt with its TimeoutError.
      if (request.signal.aborted) throw error;
      throw networkFailure(error, { method, url: exchange.url });
    }
  }

  /**
   * ky's `shouldRetry` for this request: never an error of a hook nor a 401 about to be refreshed, then the user's
   * `shouldRetry`, then the policy, as ky's own rules would decide. Announces the retry with the wait ky will take.
   */
  async #shouldRetry(exchange: Exchange, state: KyRetryState): Promise<boolean | undefined> {
    const { error, retryCount } = state;
    const failed = isHTTPError(error) ? error : undefined;
    const status = failed?.response.status;
    if (exchange.signal?.aborted || !isAttemptFailure(error) || (exchange.refreshable && status === 401)) return false;
    const { emitter, http } = this.#options;
    const { retry } = http;
    const verdict = await retry.shouldRetry?.(state);
    // A `true` of the user's makes ky back off, whatever the server asked for. ky waits as asked only on
    // `afterStatusCodes`, reading the headers as `readRetryAfter` does where that reads a wait.
    const asked =
      verdict === undefined && failed && retry.afterStatusCodes.includes(status!)
        ? readRetryAfter(failed.response.headers, retry.maxRetryAfter)
        : undefined;
    const retried =
      verdict ??
      (status === undefined
        ? !isAttemptTimeout(error) || retry.retryOnTimeout
        : (retry.statusCodes.includes(status) && (status !== 413 || asked !== undefined)) || // ky's exception for 413
          // The key's first attempt is still being answered (one that timed out here): the next gets its answer.
          (status === 409 && exchange.idempotencyKey !== undefined));
    if (!retried) return false;
    exchange.retries++;
    exchange.failure = await this.#failure(error, exchange);
    emitter.emit('retry', {
      method: exchange.method,
      url: redactUrl(exchange.url),
      attempt: exchange.attempts,
      delay: asked ?? backoff(retry, retryCount),
      error: exchange.failure as Error,
    });
    // Left to ky (`undefined`) only where it then waits what the server asked for; forced elsewhere, the decision taken.
    return asked === undefined || undefined;
  }

  /** What the caller gets for a failure of ky: the user's abort reason, else the typed error. */
  #failure(error: unknown, exchange: Exchange): Promise<unknown> {
    if (exchange.signal?.aborted) return Promise.resolve(exchange.signal.reason);
    const { method, url, limit } = exchange;
    return typedFailure(error, { method, url, timeout: this.#options.http.timeout, maxResponseSize: limit });
  }

  #reply(method: string, url: string, response: Response, text: string | undefined): Reply {
    const reply: Reply = {
      method,
      url: response.url || url,
      status: response.status,
      headers: response.headers,
      data: undefined,
      revalidated: false,
    };
    if (text === undefined) {
      if (method !== 'HEAD' && response.body && response.status !== 204) reply.document = response;
    } else if (text !== '') {
      try {
        reply.data = JSON.parse(text);
      } catch (cause) {
        throw new InvalidResponseError({
          method,
          url,
          status: response.status,
          headers: headerRecord(response.headers),
          body: text,
          cause,
        });
      }
    }
    return reply;
  }

  async #fromCache(owner: string, stored: CacheEntry, notModified: Response): Promise<Reply> {
    const { cache, emitter } = this.#options;
    const entry = revalidated(stored, headerRecord(notModified.headers), Date.now());
    if (revalidationChanged(stored, entry)) await cache?.put(owner, entry);
    emitter.emit('cache:revalidated', { url: redactUrl(entry.url) });
    return {
      method: 'GET',
      url: entry.url,
      status: entry.status,
      headers: new Headers(entry.headers),
      data: entry.body === '' ? undefined : JSON.parse(entry.body),
      revalidated: true,
    };
  }

  async #updateCache(cache: HttpCache, owner: string, url: string, reply: Reply, text?: string): Promise<void> {
    const { emitter } = this.#options;
    if (reply.method === 'GET') {
      if (reply.status !== 200 || text === undefined) return;
      const headers = headerRecord(reply.headers);
      // The cache decides what it keeps; a response that may no longer be stored also drops the older copy.
      await cache.put(owner, { url, status: 200, headers, body: text, storedAt: Date.now() });
      if (isStorable(200, headers)) emitter.emit('cache:stored', { url: redactUrl(url) });
      return;
    }
    // The other safe methods change nothing.
    if (reply.method === 'HEAD' || reply.method === 'OPTIONS') return;
    const urls = new Set([url]);
    for (const href of [selfHref(reply.data), reply.headers.get('location')]) {
      if (href != null) urls.add(new URL(href, reply.url).href);
    }
    await cache.invalidate(owner, [...urls]);
    emitter.emit('cache:invalidated', { urls: [...urls].map((u) => redactUrl(u)) });
  }
}

/** Whether a cached body is larger than `limit` (counted only when it may be: UTF-8 takes ≤ 3 bytes a unit). */
function overLimit(body: string, limit: BodyLimit): boolean {
  return limit !== false && body.length * 3 > limit && utf8Length(body) > limit;
}

/**
 * Random bytes drawn ahead for the keys, 256 at a time: Node's `getRandomValues` runs a native job per call, which
 * cost a push of many files more than the key's other work (`randomUUID` draws ahead for the same reason).
 */
let random: Uint8Array | undefined;

/**
 * An `Idempotency-Key` as the draft writes it, an sf-string: `given` quoted, else 128 random bits in base64url
 * (`getRandomValues`, which every runtime has; `randomUUID` is missing from pages served over plain HTTP).
 */
function idempotencyKey(given: string | undefined): string {
  if (!random?.length) random = crypto.getRandomValues(new Uint8Array(4096));
  const key = given ?? encodeBase64Url(random.subarray(0, 16));
  random = random.subarray(16);
  return `"${key.replace(/[\\"]/g, '\\$&')}"`;
}
