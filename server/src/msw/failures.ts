/**
 * Failures a test simulates the MSW way: handlers it puts before the mock's own with `server.use(...)`
 * (or `worker.use(...)`), removed again by `resetHandlers()`.
 */
import { delay, type HttpHandler, HttpResponse, http } from 'msw';
import { failureAnswer } from '../core/failure-answer.js';
import { toFetchHandler } from '../core/fetch-adapter.js';
import { requestIdOf } from '../core/request-id.js';
import type { CoreRequest } from '../core/types.js';
import { HttpError } from '../http/http-error.js';

/** Which requests a failure handler affects. Every field is optional. */
export interface FailureOptions {
  /**
   * Path under the mock's origin, in MSW's path syntax: `/v1/shops/:shop_id/theme.json`, `/oauth/token`,
   * `/v1/*` (every path below the API's root, not `/v1` itself). Default: every path.
   */
  path?: string;
  /** Only requests with this method (any case), e.g. `'PUT'`. Default: every method. */
  method?: string;
  /**
   * How many matching requests fail; later ones pass on to the next handler (the mock's own). Default:
   * every one. Counted per handler: `server.resetHandlers()` drops it, a new call makes a new count.
   */
  times?: number;
}

/** Options of a simulated server error. */
export interface ServerErrorOptions extends FailureOptions {
  /** Default 500. */
  status?: 500 | 502 | 503 | 504;
  /** Seconds sent as `Retry-After` (the SDK waits that long before its retry, instead of its backoff). */
  retryAfter?: number;
}

const MESSAGES: Record<NonNullable<ServerErrorOptions['status']>, string> = {
  // The reference server's own words for a 500.
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

/** Answers a request, or `undefined` to let the next handler answer it. */
type Failure = (request: Request) => Promise<Response | undefined> | Response | undefined;

/**
 * The URLs at `prefix` and under it (`prefix/…`, `prefix.json`, `prefix?…`). A RegExp rather than an MSW path
 * pattern: MSW decodes the parameters of a pattern match and fails the whole request on malformed
 * percent-encoding, which the server answers with a 400.
 */
export function under(prefix: string): RegExp {
  return new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?:[/.?#]|$)`);
}

/**
 * The handler that applies `failure` to the requests `options` select; `scope` is the default of
 * `options.path` (default: every URL of the origin).
 */
export function failureHandler(
  origin: string,
  options: FailureOptions,
  failure: Failure,
  scope: RegExp = under(origin),
): HttpHandler {
  const { path } = options;
  if (path !== undefined && !path.startsWith('/')) throw new TypeError(`path must start with "/", got "${path}"`);
  const times = options.times ?? Number.POSITIVE_INFINITY;
  if (!(times >= 0) || (times !== Number.POSITIVE_INFINITY && !Number.isInteger(times))) {
    throw new RangeError(`times must be a non-negative integer, got ${options.times}`);
  }
  const method = options.method?.toUpperCase();
  let left = times;
  // `http.all` plus a method check rather than `{ once }`: MSW counts a use before the resolver runs, so it
  // could not let a request of another method pass without using up the handler.
  return http.all(path === undefined ? scope : origin + path, ({ request }) => {
    if ((method && request.method !== method) || left <= 0) return undefined;
    left--;
    return failure(request);
  });
}

/**
 * A failure answering a 5xx with the API's error body and headers (RFC 6749's at the token endpoint), rendered as
 * the reference server renders its errors, named by its request id; `now` dates it.
 */
export function serverFailure(options: ServerErrorOptions, now: () => number): Failure {
  const status = options.status ?? 500;
  if (!Object.hasOwn(MESSAGES, status)) throw new RangeError(`status must be 500, 502, 503 or 504, got ${status}`);
  const { retryAfter } = options;
  if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && retryAfter >= 0)) {
    throw new RangeError(`retryAfter must be a whole number of seconds >= 0, got ${retryAfter}`);
  }
  const error = new HttpError(
    status,
    MESSAGES[status],
    undefined,
    retryAfter === undefined ? undefined : { 'retry-after': String(retryAfter) },
  );
  return toFetchHandler(async (request: CoreRequest) =>
    failureAnswer(request, error, requestIdOf(request.headers.get('x-request-id')), now(), {
      scopes: '',
      acceptedScopes: '',
    }),
  );
}

/** A failure that waits `ms`, then lets the request through to the next handler. */
export function slowFailure(ms: number): Failure {
  if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`ms must be a finite number >= 0, got ${ms}`);
  return async () => {
    await delay(ms);
    return undefined;
  };
}

/** A failure at the network level: `fetch` rejects with a `TypeError`, as when the host is unreachable. */
export const networkFailure: Failure = () => HttpResponse.error();
