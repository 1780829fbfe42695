/**
 * Bearer token verification for the resource API (RFC 6750): which caller a request acts for, or why not.
 */
import type { Scope } from '@storefront-platform/sdk/internal';
import type { CoreContext, CoreRequest, Principal } from '../core/types.js';
import { findToken } from './tokens.js';

/** Why a request has no principal. */
export type BearerFailureReason =
  /** No bearer token was sent (no Authorization header, or another scheme). */
  | 'missing'
  /** The token was sent in more than one place, or more than once (RFC 6750 §3.1 `invalid_request`). */
  | 'malformed'
  /** Unknown token, or its user no longer exists. */
  | 'invalid'
  | 'expired'
  /** Exchanged through the JWT bearer grant. */
  | 'revoked';

/** A refusal of {@link authenticate}. */
export interface BearerFailure {
  ok: false;
  reason: BearerFailureReason;
  /** 401, or 400 for a `malformed` request. */
  status: 400 | 401;
  /** Human-readable, for the error body; never contains the token. */
  message: string;
}

/** The outcome of {@link authenticate}. */
export type BearerResult = { ok: true; principal: Principal } | BearerFailure;

/** A problem {@link bearerChallenge} describes: a failed authentication, or a valid token lacking a scope. */
export type BearerProblem = BearerFailure | { reason: 'insufficient_scope'; scope: Scope };

export interface AuthenticateOptions {
  /**
   * Accept the `access_token` query parameter (RFC 6750 §2.3). The API allows it only for `.jsonp` GET/HEAD
   * requests (spec §4.5), where a script tag cannot send headers.
   */
  allowQueryToken?: boolean;
}

/** RFC 6750 §2.1 `b64token`. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const SCHEME = /^Bearer(?: |$)/i;

const MESSAGES: Record<BearerFailureReason, string> = {
  missing: 'An access token is required: send Authorization: Bearer <token>',
  malformed: 'Send the access token once, in the Authorization header or (JSONP only) the access_token parameter',
  invalid: 'The access token is invalid',
  expired: 'The access token has expired',
  revoked: 'The access token was revoked (it was exchanged for a new one)',
};

/** A script tag cannot send headers: the way in it has is the query (spec §4.5). */
const MISSING_FROM_JSONP =
  'An access token is required: JSONP requests send it as the access_token query parameter (…?callback=cb&access_token=<token>)';

function fail(reason: BearerFailureReason, message = MESSAGES[reason]): BearerFailure {
  return { ok: false, reason, status: reason === 'malformed' ? 400 : 401, message };
}

/** The principal behind the request's bearer token. Synchronous: one hash and one indexed lookup. */
export function authenticate(
  context: CoreContext,
  request: CoreRequest,
  options: AuthenticateOptions = {},
): BearerResult {
  const header = request.headers.get('authorization');
  const fromQuery = options.allowQueryToken ? request.url.searchParams.getAll('access_token') : [];
  if (fromQuery.length > 1) return fail('malformed');
  let token: string | undefined;
  if (header && SCHEME.test(header)) {
    if (fromQuery.length > 0) return fail('malformed');
    const match = BEARER.exec(header);
    if (!match) return fail('invalid');
    token = match[1];
  } else {
    token = fromQuery[0] || undefined;
  }
  if (token === undefined) return options.allowQueryToken ? fail('missing', MISSING_FROM_JSONP) : fail('missing');

  const row = findToken(context.store, token);
  if (!row || !context.store.get('users', row.user_id)) return fail('invalid');
  if (row.revoked_at !== undefined) return fail('revoked');
  if (row.expires_at <= context.clock.now()) return fail('expired');
  return { ok: true, principal: { tokenId: row.id, userId: row.user_id, appId: row.app_id, scopes: [...row.scopes] } };
}

/**
 * The `WWW-Authenticate` value for a problem (RFC 6750 §3): no error attributes when no token was sent,
 * `invalid_token` for a bad one, `invalid_request` for a malformed request, `insufficient_scope` with the scope needed.
 */
export function bearerChallenge(problem: BearerProblem): string {
  const realm = 'Bearer realm="storefront"';
  switch (problem.reason) {
    case 'missing':
      return realm;
    case 'malformed':
      return `${realm}, error="invalid_request"`;
    case 'insufficient_scope':
      return `${realm}, error="insufficient_scope", scope="${problem.scope}"`;
    default:
      return `${realm}, error="invalid_token"`;
  }
}
