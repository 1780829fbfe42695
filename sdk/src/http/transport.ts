import type { AuthStrategy, Credentials } from '../auth/types.js';
import type { CacheEntry, HttpCache } from '../cache/types.js';
import { conditionalHeaders, isStorable, revalidated } from '../cache/validators.js';
import { createHttpError } from '../errors/create-http-error.js';
import type { HttpError } from '../errors/http-error.js';
import { InvalidResponseError } from '../errors/invalid-response-error.js';
import { NetworkError } from '../errors/network-error.js';
import { redactHeaders, redactUrl } from '../errors/redact.js';
import { TimeoutError } from '../errors/timeout-error.js';
import type { Emitter } from './events.js';
import { headerRecord, isJsonType, parseBody } from './media-type.js';
import { type RetryPolicy, retryDelay, sleep } from './retry.js';

/** Cache partition of requests sent without credentials. */
const ANONYMOUS = 'anonymous';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const DEFAULT_ACCEPT = 'application/hal+json, application/json';

/** How the transport is wired; built by `createClient`. */
export interface TransportOptions {
  fetch: typeof fetch;
  emitter: Emitter;
  retry: RetryPolicy;
  /** Per-attempt limit in ms; 0 disables it. */
  timeout: number;
  auth?: AuthStrategy;
  cache?: HttpCache;
  userAgent?: string;
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

interface Attempt {
  response: Response;
  /** Body text, read within the attempt's timeout, when the body is JSON. */
  text?: string;
}

/**
 * Sends requests the way the API expects: credentials from the auth strategy, conditional GETs from the HTTP
 * cache, one retry after a refreshed token, retries with backoff for idempotent requests, a timeout per
 * attempt, typed errors, and events for each step. Without `auth` or `cache` those steps are skipped.
 *
 * Built on `fetch` directly rather than ky: a 304 answered from the cache, the refresh-and-retry-once keyed by
 * the failed credentials and the cache invalidation all sit between attempts, where ky's hooks would have to be
 * bent around its own retry loop and error classes; and ky would cost 5 KB of the SDK's 15 KB gzip budget
 * for the retry and timeout logic that takes well under 1 KB here.
 */
export class Transport {
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  async request(request: TransportRequest): Promise<Reply> {
    const { auth, cache, emitter, retry } = this.#options;
    const method = request.method.toUpperCase();
    let credentials = await auth?.credentials(request.signal);
    const owner = credentials?.owner ?? ANONYMOUS;
    const stored = cache && method === 'GET' ? await cache.get(owner, request.url) : undefined;
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

    let refreshed = false;
    let retries = 0;
    for (let attempt = 1; ; attempt++) {
      const headers = this.#headers(request, credentials, stored, ifMatch);
      let result: Attempt;
      try {
        result = await this.#send(method, request, headers, attempt);
      } catch (error) {
        if (!(error instanceof NetworkError || error instanceof TimeoutError) || !this.#mayRetry(method, retries)) {
          throw error;
        }
        retries++;
        await this.#wait(method, request, attempt, retries, null, error);
        continue;
      }
      const { response } = result;

      if (response.status === 401 && auth?.refresh && credentials && !refreshed) {
        if (!response.bodyUsed) await response.body?.cancel();
        credentials = await auth.refresh(credentials, request.signal);
        refreshed = true;
        emitter.emit('token:refreshed', { method, url: redactUrl(request.url) });
        continue;
      }
      if (response.status === 304 && stored) {
        return this.#fromCache(owner, stored, response);
      }
      if (!response.ok) {
        const error = await this.#error(method, request.url, result);
        if (retry.statuses.includes(response.status) && this.#mayRetry(method, retries)) {
          retries++;
          await this.#wait(method, request, attempt, retries, response.headers.get('retry-after'), error);
          continue;
        }
        throw error;
      }
      const reply = this.#reply(method, request.url, result);
      if (cache) await this.#updateCache(cache, owner, request.url, reply, result.text);
      return reply;
    }
  }

  #headers(request: TransportRequest, credentials?: Credentials, stored?: CacheEntry, ifMatch?: string): Headers {
    const headers = new Headers({ accept: request.accept ?? DEFAULT_ACCEPT });
    if (this.#options.userAgent) headers.set('user-agent', this.#options.userAgent);
    if (credentials) headers.set('authorization', `Bearer ${credentials.token}`);
    if (request.body !== undefined) headers.set('content-type', 'application/json');
    if (stored) {
      for (const [name, value] of Object.entries(conditionalHeaders(stored))) headers.set(name, value);
    }
    if (ifMatch !== undefined) headers.set('if-match', ifMatch);
    return headers;
  }

  /** One attempt, bounded by the timeout; a JSON body is read inside it so that a stalled body also times out. */
  async #send(method: string, request: TransportRequest, headers: Headers, attempt: number): Promise<Attempt> {
    const { emitter, timeout } = this.#options;
    const url = request.url;
    const timer = new AbortController();
    const timeoutId = timeout > 0 ? setTimeout(() => timer.abort(), timeout) : undefined;
    const signal = request.signal ? AbortSignal.any([request.signal, timer.signal]) : timer.signal;
    if (emitter.wants('request')) {
      emitter.emit('request', { method, url: redactUrl(url), headers: redactHeaders(headers), attempt });
    }
    const started = performance.now();
    try {
      const response = await this.#options.fetch(url, {
        method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      });
      if (emitter.wants('response')) {
        emitter.emit('response', {
          method,
          url: redactUrl(url),
          status: response.status,
          headers: redactHeaders(response.headers),
          attempt,
          duration: performance.now() - started,
        });
      }
      const json = method !== 'HEAD' && isJsonType(response.headers.get('content-type'));
      return json ? { response, text: await response.text() } : { response };
    } catch (error) {
      request.signal?.throwIfAborted();
      if (timer.signal.aborted) throw new TimeoutError({ method, url, timeout, cause: error });
      throw new NetworkError({ method, url, cause: error });
    } finally {
      clearTimeout(timeoutId);
    }
  }

  #mayRetry(method: string, retries: number): boolean {
    const { retry } = this.#options;
    return retries < retry.limit && retry.methods.includes(method);
  }

  async #wait(
    method: string,
    request: TransportRequest,
    attempt: number,
    retries: number,
    retryAfter: string | null,
    error: Error,
  ): Promise<void> {
    const delay = retryDelay(this.#options.retry, retries, retryAfter);
    this.#options.emitter.emit('retry', { method, url: redactUrl(request.url), attempt, delay, error });
    await sleep(delay, request.signal);
  }

  async #error(method: string, url: string, { response, text }: Attempt): Promise<HttpError> {
    const raw = text ?? (await response.text().catch(() => ''));
    return createHttpError({
      method,
      url,
      status: response.status,
      statusText: response.statusText,
      headers: headerRecord(response.headers),
      body: parseBody(raw, response.headers.get('content-type')),
    });
  }

  #reply(method: string, url: string, { response, text }: Attempt): Reply {
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
    await cache?.put(owner, entry);
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
    if (SAFE_METHODS.has(reply.method)) return;
    const urls = new Set([url]);
    const self = (reply.data as { _links?: { self?: { href?: unknown } } } | undefined)?._links?.self?.href;
    for (const href of [self, reply.headers.get('location')]) {
      if (typeof href === 'string') urls.add(new URL(href, reply.url).href);
    }
    await cache.invalidate(owner, [...urls]);
    emitter.emit('cache:invalidated', { urls: [...urls].map((u) => redactUrl(u)) });
  }
}
