/**
 * Failures answered without a route: the store's outage (in the pipeline, or in front of it where the sandbox's
 * fault layer reads its rules), a fault rule's status, a mock's server error. Each in the terms of the service the
 * path belongs to (the API's error body, or RFC 6749's at the authorization service), naming its request in the
 * body as `request_id` and in `X-Request-Id`, as every other error of either does.
 */
import { withCors } from '../http/cors.js';
import { HttpError } from '../http/http-error.js';
import { type Exchange, respondError } from '../http/respond.js';
import { oauthFailure, oauthUnavailable } from '../oauth/responses.js';
import type { CoreRequest, CoreResponse } from './types.js';

/** Whether `path` may be the authorization service's (its endpoints, its RFC 8414 metadata under /.well-known). */
export function isOAuthPath(path: string): boolean {
  return path.includes('/oauth/') || path.startsWith('/.well-known/');
}

/**
 * The store's database did not answer, or did not take (or confirm) a write: the client may retry shortly, once
 * it has read again what it wrote.
 */
const STORE_UNAVAILABLE = new HttpError(
  503,
  'Service unavailable: the database did not answer; read the resource again, then retry',
  undefined,
  { 'retry-after': '1' },
);

/**
 * The store's outage as `exchange` gets it: the API's 503, or at the authorization service (`oauth`)
 * `temporarily_unavailable`; both with `Retry-After: 1`.
 */
export function storeUnavailable(exchange: Exchange, oauth: boolean, now: number): CoreResponse {
  if (!oauth) return respondError(exchange, STORE_UNAVAILABLE, now);
  return withCors(oauthUnavailable(exchange.requestId, STORE_UNAVAILABLE.headers));
}

/** What these answers read of a request. */
type RequestHead = Pick<CoreRequest, 'method' | 'url' | 'headers'>;

/**
 * `error` answered to `request` before any route saw it (a fault rule's status, a mock's server error): at the
 * authorization service's paths an RFC 6749 body with the error's message as `error_description`, else the API's
 * error body. `exchange` adds what the answer says besides (the scope headers of the API's answers).
 */
export function failureAnswer(
  request: RequestHead,
  error: HttpError,
  requestId: string,
  now: number,
  exchange: Partial<Exchange> = {},
): CoreResponse {
  return isOAuthPath(request.url.pathname)
    ? withCors(oauthFailure(error.status, error.message, requestId, error.headers))
    : respondError({ ...exchange, method: request.method, headers: request.headers, requestId }, error, now);
}

/** The store's outage answered in front of the pipeline: {@link storeUnavailable}, by the request's path. */
export function storeUnavailableAnswer(request: RequestHead, requestId: string, now: number): CoreResponse {
  const exchange = { method: request.method, headers: request.headers, requestId };
  return storeUnavailable(exchange, isOAuthPath(request.url.pathname), now);
}
