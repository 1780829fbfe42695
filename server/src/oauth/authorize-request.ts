import type { Scope } from '@storefront-platform/sdk/internal';
import { isPkceValue } from '@storefront-platform/sdk/internal';
import type { AppRow, Store } from '../store/types.js';
import { kindOf } from './client-kind.js';
import { findApp } from './clients.js';
import { OAuthError } from './errors.js';
import { singleParams } from './params.js';
import { isRegisteredRedirectUri } from './redirect-uris.js';
import { parseScopes } from './scopes.js';

/** Where an authorization response goes, once the redirect URI is known to be registered. */
export interface RedirectTarget {
  redirectUri: string;
  /** The implicit grant answers in the fragment (RFC 6749 §4.2.2), the code grant in the query. */
  fragment: boolean;
  state?: string;
}

/** A validated authorization request (RFC 6749 §4.1.1, §4.2.1, RFC 7636 §4.3). */
export interface AuthorizeRequest extends RedirectTarget {
  app: AppRow;
  responseType: 'code' | 'token';
  scopes: Scope[];
  /** S256 challenge of the code grant, when the client sent one. */
  codeChallenge?: string;
}

/**
 * A refused authorization request. Without `target` the client or redirect URI could not be trusted, so the
 * user sees an error page (RFC 6749 §4.1.2.1: never redirect to an unvalidated URI); with it, the error goes
 * back to the client.
 */
export class AuthorizeError extends Error {
  constructor(
    readonly error: OAuthError,
    readonly target?: RedirectTarget,
  ) {
    super(error.message);
    this.name = 'AuthorizeError';
  }
}

/** Validates the parameters of an authorization request, the client and its redirect URI first. */
export function parseAuthorizeRequest(store: Store, raw: URLSearchParams): AuthorizeRequest {
  const clientId = trusted(raw, 'client_id');
  const redirectUri = trusted(raw, 'redirect_uri');
  if (clientId === undefined) throw pageError('The request does not name the application (client_id is missing).');
  const app = findApp(store, clientId);
  if (!app) throw pageError('The application making this request is not registered.');
  if (redirectUri === undefined) throw pageError('The request has no redirect_uri.');
  if (
    !isRegisteredRedirectUri(app.redirect_uris, redirectUri, kindOf(app) === 'native') ||
    !URL.canParse(redirectUri) ||
    redirectUri.includes('#')
  ) {
    throw pageError('The redirect_uri is not registered for this application.');
  }

  const states = raw.getAll('state');
  const target: RedirectTarget = {
    redirectUri,
    fragment: raw.get('response_type') === 'token',
    ...(states.length === 1 && states[0] ? { state: states[0] } : {}),
  };
  try {
    const params = singleParams(raw);
    const responseType = params.get('response_type');
    if (responseType === undefined)
      throw new OAuthError('invalid_request', 'The parameter "response_type" is required');
    if (responseType !== 'code' && responseType !== 'token') {
      throw new OAuthError('unsupported_response_type', 'The response_type must be "code" or "token"');
    }
    const scopes = parseScopes(params.get('scope'));
    const codeChallenge = responseType === 'code' ? challengeOf(params) : undefined;
    return { ...target, app, responseType, scopes, ...(codeChallenge === undefined ? {} : { codeChallenge }) };
  } catch (error) {
    if (error instanceof OAuthError) throw new AuthorizeError(error, target);
    throw error;
  }
}

/** RFC 7636 §4.3; `plain` (the default method) is refused: it protects nothing a leaked request does not reveal. */
function challengeOf(params: Map<string, string>): string | undefined {
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (challenge === undefined) {
    if (method !== undefined)
      throw new OAuthError('invalid_request', 'code_challenge_method was sent without code_challenge');
    return undefined;
  }
  if (method !== 'S256') throw new OAuthError('invalid_request', 'The code_challenge_method must be S256');
  if (!isPkceValue(challenge)) {
    throw new OAuthError('invalid_request', 'The code_challenge must be 43 to 128 unreserved characters (RFC 7636)');
  }
  return challenge;
}

/** A parameter that decides where errors may go: sent more than once, it cannot be trusted at all. */
function trusted(raw: URLSearchParams, name: string): string | undefined {
  const values = raw.getAll(name);
  if (values.length > 1) throw pageError(`The parameter ${name} is included more than once.`);
  return values[0] || undefined;
}

function pageError(message: string): AuthorizeError {
  return new AuthorizeError(new OAuthError('invalid_request', message));
}
