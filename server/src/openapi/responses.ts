/**
 * The reusable parts of the document: response headers (validators, scopes, challenges), request headers
 * (conditional requests), error responses, and the security schemes of the authorization service.
 */
import type { Addresses } from '../core/types.js';
import type { Schema } from './contract-types.js';
import { schemaRef } from './hal-schemas.js';

const text = (description: string, schema: Schema = { type: 'string' }, required = false) => ({
  description,
  required,
  schema,
});

/** A header always sent where it is declared, its value matching `pattern`. */
const sent = (description: string, pattern: string) => text(description, { type: 'string', pattern }, true);

/** A comma-separated list of scopes, maybe empty. */
const SCOPE_LIST: Schema = { type: 'string', pattern: '^[a-z]*(, ?[a-z]+)*$' };

/** Response headers, by component name. */
export const HEADERS = {
  ETag: sent('Strong entity tag of the representation (RFC 9110 §8.8.3).', '^"[^"]*"$'),
  LastModified: text(
    'When the representation last changed (HTTP date, never later than `Date`).',
    { type: 'string' },
    true,
  ),
  CacheControl: text('`must-revalidate, private, max-age=0` on the resource API: revalidate every time.'),
  Vary: text('`Accept-Encoding`.'),
  // Sent on every answer, but empty where there is nothing to say (no valid token: every 401; an open endpoint):
  // an empty header is as good as none to many clients and proxies, so neither is declared required.
  OAuthScopes: text('Comma-separated scopes of the token used; empty without a valid one (401).', SCOPE_LIST),
  AcceptedOAuthScopes: text('The scope the endpoint needs; empty on open ones.', SCOPE_LIST),
  Location: text('The created resource.', { type: 'string', format: 'uri' }, true),
  BearerChallenge: sent(
    '`Bearer realm="storefront"`, with `error="invalid_token"` when a token was sent, or `error="insufficient_scope", scope="…"` (403).',
    '^Bearer ',
  ),
  BasicChallenge: sent('`Basic realm="storefront"`: the client failed to authenticate.', '^Basic '),
  RetryAfter: sent('Seconds to wait before retrying.', '^[0-9]+$'),
  RequestId: sent(
    'The request’s id: the client’s own `X-Request-Id` when sane (1 to 128 of letters, digits and `-_.:+=/@`), else one the server made (a UUID). Error bodies repeat it as `request_id`; the server’s request log prints it.',
    '^[A-Za-z0-9\\-_.:+=/@]{1,128}$',
  ),
  IdempotentReplayed: text(
    '`true` on an answer replayed for a repeated `Idempotency-Key`: the first answer, status, headers and body, of a request made once.',
    { const: 'true' },
  ),
  // draft-ietf-httpapi-ratelimit-headers: Lists of structured fields (RFC 9651), one item per policy.
  RateLimitPolicy: text(
    'With a rate limit (`storefront-server --rate-limit`), on every answer to a request with a valid token: the quota per window for each app and user, `"app-user";q=120;w=60` (draft-ietf-httpapi-ratelimit-headers).',
  ),
  RateLimit: text(
    'With a rate limit, on every answer to a request with a valid token: requests left in the window and the seconds until it ends, `"app-user";r=57;t=23` (draft-ietf-httpapi-ratelimit-headers).',
  ),
};

/** Headers of every resource API response. */
export const API_HEADERS = {
  'Cache-Control': { $ref: '#/components/headers/CacheControl' },
  Vary: { $ref: '#/components/headers/Vary' },
  'X-OAuth-Scopes': { $ref: '#/components/headers/OAuthScopes' },
  'X-Accepted-OAuth-Scopes': { $ref: '#/components/headers/AcceptedOAuthScopes' },
  'X-Request-Id': { $ref: '#/components/headers/RequestId' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};

/** The validators of a representation (200 and 304). */
export const VALIDATORS = {
  ETag: { $ref: '#/components/headers/ETag' },
  'Last-Modified': { $ref: '#/components/headers/LastModified' },
};

/** A request header the client may send. */
const header = (name: string, description: string, schema: Schema = { type: 'string' }) => ({
  name,
  in: 'header',
  description,
  schema,
});

/** Request headers: conditional requests, idempotency keys, request ids. */
export const PARAMETERS = {
  IfNoneMatch: header(
    'If-None-Match',
    'Entity tags held: 304 when one is current (GET, HEAD); 412 on a write when one matches (`*`: any).',
  ),
  IfModifiedSince: header(
    'If-Modified-Since',
    'A `Last-Modified` held: 304 when nothing changed since (ignored with `If-None-Match`).',
  ),
  IfMatch: header(
    'If-Match',
    'The entity tag the change is based on: 412 when the resource changed since (lost-update guard).',
  ),
  IfUnmodifiedSince: header(
    'If-Unmodified-Since',
    '412 when the resource changed after this date (without `If-Match`).',
  ),
  IdempotencyKey: header(
    'Idempotency-Key',
    'draft-ietf-httpapi-idempotency-key-header: a key of the caller’s (an sf-string such as `"8e03978e-40d5-43e8-bc93-6894a57f9324"`, or the bare key; 1 to 255 printable ASCII characters), new for each logical request and the same on its retries. The key is stored with the write, its answer right after, both kept 24 hours: the same key with the same method, path and body gets it again (`Idempotent-Replayed: true`), with another request a 422, while its first request is still answered a 409. A request that failed stores nothing.',
    { type: 'string', minLength: 1 },
  ),
  RequestId: header(
    'X-Request-Id',
    'An id of the client’s for the request, kept when sane (1 to 128 of letters, digits and `-_.:+=/@`), else replaced; the answer’s `X-Request-Id` tells which.',
  ),
};

const json = (schema: Schema) => ({ 'application/json': { schema } });

function error(description: string, headers: Record<string, unknown> = {}, schema = schemaRef('ErrorBody')) {
  return { description, headers: { ...API_HEADERS, ...headers }, content: json(schema) };
}

/** Error responses of the resource API (wire contract, "Errors of the resource API"), by component name. */
export const ERROR_RESPONSES = {
  BadRequest: error('Malformed request: a bad query value, malformed JSON, a bad JSONP callback.'),
  Unauthorized: error('No token, or an invalid or expired one.', {
    'WWW-Authenticate': { $ref: '#/components/headers/BearerChallenge' },
  }),
  Forbidden: error('The token lacks the scope the endpoint needs.', {
    'WWW-Authenticate': { $ref: '#/components/headers/BearerChallenge' },
  }),
  NotFound: error('No such resource, or one the caller may not see (other people’s shops are 404, not 403).'),
  PreconditionFailed: error('`If-Match`, `If-Unmodified-Since` or (on a write) `If-None-Match` failed.'),
  PayloadTooLarge: error('The body is over the endpoint’s limit.'),
  UnsupportedMediaType: error('The body is not of a type the endpoint takes (or is content-encoded).'),
  ValidationFailed: error(
    'A body member the endpoint refuses or does not know, with the messages per field; on a POST, also an `Idempotency-Key` used before with another request (field `Idempotency-Key`).',
    {},
    {
      allOf: [schemaRef('ErrorBody'), { required: ['_embedded'] }],
    },
  ),
  TooManyRequests: error(
    'Past the rate limit of the app and user (`storefront-server --rate-limit`; off by default): retry after `Retry-After`, the end of the window.',
    { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  ),
  ServiceUnavailable: error('The store could not be reached, or did not take the write: retry after `Retry-After`.', {
    'Retry-After': { $ref: '#/components/headers/RetryAfter' },
  }),
  InsufficientStorage: error('The server’s disk is full: the write was not made.'),
  IdempotencyKeyInUse: error(
    'A request with this `Idempotency-Key` is still being answered: retry after `Retry-After` to get its answer.',
    { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  ),
};

/** OAuth 2.0 (spec §5): every flow; the JWT bearer grant refreshes a token at the token endpoint. */
export function securitySchemes(addresses: Addresses) {
  const tokenUrl = `${addresses.authUrl}/oauth/token`;
  const authorizationUrl = `${addresses.authUrl}/oauth/authorize`;
  const scopes = { admin: 'Read and write the shops the user administers.', public: 'Read public data.' };
  return {
    oauth2: {
      type: 'oauth2',
      description:
        'Bearer tokens of the authorization service. An expired token is exchanged for a new one with the JWT bearer grant (`urn:ietf:params:oauth:grant-type:jwt-bearer`, see the token endpoint).',
      flows: {
        clientCredentials: { tokenUrl, scopes },
        password: { tokenUrl, scopes },
        authorizationCode: { authorizationUrl, tokenUrl, scopes },
        implicit: { authorizationUrl, scopes },
      },
    },
    clientBasic: {
      type: 'http',
      scheme: 'basic',
      description:
        'Client authentication at the token endpoint: `client_id:client_secret`, each form-urlencoded first (RFC 6749 App. B).',
    },
  };
}

const REQUEST_ID = { $ref: '#/components/headers/RequestId' };

type Json = Record<string, unknown>;
const mapValues = (object: Json, map: (value: unknown) => unknown): Json =>
  Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));

/** `response` naming `X-Request-Id` among its headers; a `$ref` to a component as it is (each names it already). */
function withRequestId(response: unknown): unknown {
  if (!response || typeof response !== 'object' || '$ref' in response) return response;
  const { headers = {} } = response as { headers?: Json };
  return 'X-Request-Id' in headers ? response : { ...response, headers: { ...headers, 'X-Request-Id': REQUEST_ID } };
}

/**
 * `paths` with `X-Request-Id` on every response: the server names every answer, the authorization service's, the
 * relation pages' and the theme files' too, not only the resource API's. An operation is a member with `responses`.
 */
export function withRequestIds(paths: Record<string, Json>): Record<string, Json> {
  const named = (member: unknown) => {
    const responses = (member as { responses?: Json }).responses;
    return responses ? { ...(member as Json), responses: mapValues(responses, withRequestId) } : member;
  };
  return mapValues(paths, (item) => mapValues(item as Json, named)) as Record<string, Json>;
}
