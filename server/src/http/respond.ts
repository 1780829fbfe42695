/**
 * Turns a handler's {@link Reply} (or an error) into the wire response: the common headers of every API
 * response, 304 for a satisfied conditional GET, the JSONP wrapping, and no body for HEAD.
 */
import type { CoreResponse, HeaderReader } from '../core/types.js';
import { assertUnchanged, notModifiedTag } from './conditional.js';
import { ALLOW_ORIGIN, EXPOSE_HEADERS } from './cors.js';
import { type Entity, isJsonMediaType, JSON_TYPE } from './entity.js';
import { formatHttpDate, toSeconds } from './http-date.js';
import type { HttpError } from './http-error.js';
import { JSONP_TYPE, wrapJsonp } from './jsonp.js';
import type { Reply } from './route.js';

/** What the core knows about the exchange besides the reply. */
export interface Exchange {
  method: string;
  headers: HeaderReader;
  /**
   * Scopes of the caller's token (`X-OAuth-Scopes`), empty when none; absent for a response that is not
   * from the resource API (a theme file, a relation page), which sends neither scope header.
   */
  scopes?: string;
  /** Scope the endpoint needs (`X-Accepted-OAuth-Scopes`), empty when none; absent with `scopes`. */
  acceptedScopes?: string;
  /** Set for a `.jsonp` request with a valid callback. */
  jsonp?: string;
  /** The request's id (`core/request-id.ts`), which error bodies carry as `request_id`. */
  requestId?: string;
  /** The rate limit's fields (`RateLimit-Policy`, `RateLimit`) for a request it counted. */
  limits?: Record<string, string>;
}

const CACHE_CONTROL = 'must-revalidate, private, max-age=0';
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A literal rather than a spread: this runs on every request. */
function commonHeaders(exchange: Exchange): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-origin': ALLOW_ORIGIN,
    'access-control-expose-headers': EXPOSE_HEADERS,
    'cache-control': CACHE_CONTROL,
    vary: 'Accept-Encoding',
  };
  if (exchange.scopes !== undefined) {
    headers['x-oauth-scopes'] = exchange.scopes;
    headers['x-accepted-oauth-scopes'] = exchange.acceptedScopes ?? '';
  }
  if (exchange.limits) Object.assign(headers, exchange.limits);
  return headers;
}

/**
 * `Date` from the core's clock, not the shell's, so that `Last-Modified` is checked against the same clock;
 * `Last-Modified` no later than it (RFC 9110 §8.8.2.1: a date in the future is replaced by the message's).
 */
function dateHeaders(headers: Record<string, string>, entity: Entity, now: number): void {
  headers.date = formatHttpDate(now);
  headers.etag = entity.etag;
  headers['last-modified'] = formatHttpDate(Math.min(entity.lastModified, toSeconds(now)));
}

/**
 * The headers an answer takes from its exchange rather than from its reply (the token's scopes, the rate limit's
 * fields, `Date`, and the constant ones): a replayed answer (`core/idempotency.ts`) takes them from the request that
 * replays it, not from the first.
 */
export function exchangeHeaders(exchange: Exchange, now: number): Record<string, string> {
  const headers = commonHeaders(exchange);
  headers.date = formatHttpDate(now);
  return headers;
}

/** The response for a reply, sent at `now` (epoch ms). */
export function respond(exchange: Exchange, reply: Reply, now: number): CoreResponse {
  const headers = commonHeaders(exchange);
  const status = reply.status ?? 200;
  const entity = reply.entity;
  if (!entity) {
    headers.date = formatHttpDate(now);
    if (reply.headers) Object.assign(headers, reply.headers);
    return { status, headers };
  }
  dateHeaders(headers, entity, now);
  if (reply.headers) Object.assign(headers, reply.headers);
  const read = exchange.method === 'GET' || exchange.method === 'HEAD';
  if (read && status === 200) {
    // RFC 9110 §13.2.2 in its order: If-Match / If-Unmodified-Since (412), then If-None-Match / If-Modified-Since.
    assertUnchanged(exchange.headers, entity);
    const tag = notModifiedTag(exchange.headers, entity);
    if (tag !== undefined) {
      headers.etag = tag;
      return { status: 304, headers };
    }
  }
  return withBody(exchange, status, headers, entity);
}

/**
 * The response for an error, with the same common headers (a 401 adds its `WWW-Authenticate`) but no validators:
 * an `ETag` or `Last-Modified` would describe the error body, which a client could take for the resource's.
 */
export function respondError(exchange: Exchange, error: HttpError, now: number): CoreResponse {
  const headers = commonHeaders(exchange);
  headers.date = formatHttpDate(now);
  if (error.headers) Object.assign(headers, error.headers);
  const wire = error.toBody();
  // Body and header from one place: an answer rendered before the pipeline names it (a fault's, the shell's) is whole.
  if (exchange.requestId !== undefined) {
    wire.request_id = exchange.requestId;
    headers['x-request-id'] = exchange.requestId;
  }
  const body = encoder.encode(JSON.stringify(wire));
  return withBody(exchange, error.status, headers, { body, contentType: JSON_TYPE });
}

function withBody(
  exchange: Exchange,
  status: number,
  headers: Record<string, string>,
  entity: Pick<Entity, 'body' | 'contentType'>,
): CoreResponse {
  let body = entity.body;
  if (exchange.jsonp !== undefined && isJsonMediaType(entity.contentType)) {
    body = wrapJsonp(exchange.jsonp, typeof body === 'string' ? body : decoder.decode(body));
    headers['content-type'] = JSONP_TYPE;
    headers['x-content-type-options'] = 'nosniff';
  } else headers['content-type'] = entity.contentType;
  return { status, headers, body };
}
