/** CORS: open to every origin, without credentials (tokens travel in `Authorization`, not cookies). */

/** Headers added to every response. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Last-Modified, Location, X-OAuth-Scopes, X-Accepted-OAuth-Scopes',
};

const ALLOWED_HEADERS =
  'Authorization, Content-Type, Accept, If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since, User-Agent, X-Requested-With';

/** Headers of the answer to a preflight `OPTIONS` request (status 204). */
export function preflightHeaders(): Record<string, string> {
  return {
    ...CORS_HEADERS,
    'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
  };
}
