import type { OAuthErrorBody } from '@storefront-platform/sdk/internal';
import type { CoreContext, CoreResponse } from '../core/types.js';
import type { OAuthError } from './errors.js';
import { formatScopes } from './scopes.js';
import type { IssuedToken } from './tokens.js';

/** RFC 6749 §5.1: token responses, errors included, must not be cached. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/** The challenge sent with `invalid_client`. */
const CLIENT_CHALLENGE = 'Basic realm="storefront"';

function json(status: number, body: unknown, headers: Record<string, string> = {}): CoreResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE, ...headers },
    body: JSON.stringify(body),
  };
}

/**
 * An RFC 6749 §5.2 error body naming its request (`requestId`, the answer's `X-Request-Id`) as the API's error
 * bodies do, so that an app's error and the server's log line can be joined.
 */
function errorJson(
  status: number,
  body: OAuthErrorBody,
  requestId: string | undefined,
  headers?: Record<string, string>,
): CoreResponse {
  if (requestId === undefined) return json(status, body, headers);
  // Body and header from one place: an answer rendered before the pipeline names it (a fault's, the shell's) is whole.
  return json(status, { ...body, request_id: requestId }, { ...headers, 'x-request-id': requestId });
}

/** RFC 6749 §5.1 plus the API's comma-separated `scopes`. */
export function tokenResponse(context: CoreContext, issued: IssuedToken): CoreResponse {
  return json(200, {
    access_token: issued.token,
    token_type: 'Bearer',
    expires_in: context.tokenTtl,
    ...formatScopes(issued.row.scopes),
  });
}

/** RFC 6749 §5.2; `invalid_client` is a 401 with a Basic challenge. */
export function tokenErrorResponse(error: OAuthError, requestId?: string): CoreResponse {
  const headers: Record<string, string> = {
    ...(error.code === 'invalid_client' ? { 'www-authenticate': CLIENT_CHALLENGE } : {}),
    ...error.headers,
  };
  return errorJson(error.status, { error: error.code, error_description: error.description }, requestId, headers);
}

/**
 * A failure of the service's own, not a refusal of the request: RFC 6749's `temporarily_unavailable` for a 503
 * (§4.1.2.1, the one code that says "try again later"), `server_error` for any other 5xx, `invalid_request` for a
 * 4xx (a fault rule of the sandbox or a mock's failure may answer any status at the token endpoint).
 */
export function oauthFailure(
  status: number,
  description: string,
  requestId?: string,
  headers?: Record<string, string>,
): CoreResponse {
  const error = status === 503 ? 'temporarily_unavailable' : status >= 500 ? 'server_error' : 'invalid_request';
  return errorJson(status, { error, error_description: description }, requestId, headers);
}

/** An unexpected failure of the service (a bug, a failed store write): RFC 6749's `server_error`, no details. */
export function oauthServerError(requestId?: string): CoreResponse {
  return oauthFailure(500, 'Internal server error', requestId);
}

/**
 * The service cannot store what it would issue (its disk is full or read-only, its database does not answer):
 * `temporarily_unavailable`, as a 503; `headers` add `Retry-After` when the wait is known.
 */
export function oauthUnavailable(requestId?: string, headers?: Record<string, string>): CoreResponse {
  return oauthFailure(503, UNAVAILABLE, requestId, headers);
}

/** Why `temporarily_unavailable` is answered, in the token endpoint's body and the authorization redirect. */
export const UNAVAILABLE = 'The authorization service cannot store what it issues right now; try again later';

/** A method other than POST on the token endpoint. */
export function tokenMethodNotAllowed(requestId?: string): CoreResponse {
  return errorJson(
    405,
    { error: 'invalid_request', error_description: 'The token endpoint accepts POST requests only' },
    requestId,
    { allow: 'POST' },
  );
}
