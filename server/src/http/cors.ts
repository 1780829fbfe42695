/** CORS: open to every origin, without credentials (tokens travel in `Authorization`, not cookies). */
import type { CoreResponse } from '../core/types.js';

/** `Access-Control-Allow-Origin` of every response. */
export const ALLOW_ORIGIN = '*';
/**
 * `Access-Control-Expose-Headers` of every response: what scripts may read besides the safelisted headers. The
 * browser SDK reads `Retry-After` (429, 503), `WWW-Authenticate` (which 401 it got) and the rate limit's fields (it
 * paces itself by them) too.
 */
export const EXPOSE_HEADERS =
  'ETag, Last-Modified, Location, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, Retry-After, WWW-Authenticate, X-Request-Id, Idempotent-Replayed, RateLimit-Policy, RateLimit';

/** Headers added to every response. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': ALLOW_ORIGIN,
  'access-control-expose-headers': EXPOSE_HEADERS,
};

/** `response` with {@link CORS_HEADERS}: for answers not rendered by `respond.ts` (the authorization service's). */
export function withCors(response: CoreResponse): CoreResponse {
  return { ...response, headers: { ...CORS_HEADERS, ...response.headers } };
}

const ALLOWED_HEADERS =
  'Authorization, Content-Type, Accept, If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since, User-Agent, X-Requested-With, Idempotency-Key, X-Request-Id';

/** Headers of the answer to a preflight `OPTIONS` request (status 204). */
export function preflightHeaders(): Record<string, string> {
  return {
    ...CORS_HEADERS,
    'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
  };
}
