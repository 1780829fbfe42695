import type { Scope } from '@storefront-platform/sdk/internal';
import { isPkceValue } from '@storefront-platform/sdk/internal';
import type { CoreContext } from '../core/types.js';
import { demoApp } from '../explorer/client.js';
import type { AppRow } from '../store/types.js';
import { allowsImplicitGrant, isPublicClient, kindOf } from './client-kind.js';
import { findApp } from './clients.js';
import { OAuthError, quoted } from './errors.js';
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
  /** S256 challenge of the code grant: always there for a public client, which must send one. */
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

/**
 * Validates the parameters of an authorization request, the client and its redirect URI first. `context.redirectUris`
 * adds redirect URIs to the demo app's (`--redirect-uri`), for a dev server on an address of its own.
 */
export function parseAuthorizeRequest(context: CoreContext, raw: URLSearchParams): AuthorizeRequest {
  const clientId = trusted(raw, 'client_id');
  const redirectUri = trusted(raw, 'redirect_uri');
  if (clientId === undefined) throw pageError('The request does not name the application (client_id is missing).');
  const app = findApp(context.store, clientId);
  if (!app) throw pageError('The application making this request is not registered.');
  if (redirectUri === undefined) throw pageError('The request has no redirect_uri.');
  const codeFlow = raw.get('response_type') === 'code';
  if (
    !isRegisteredRedirectUri(registeredUris(context, app), redirectUri, codeFlow && kindOf(app) === 'native') ||
    !URL.canParse(redirectUri) ||
    redirectUri.includes('#')
  ) {
    throw pageError(unregisteredMessage(context, app, redirectUri));
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
    if (responseType === 'token' && !allowsImplicitGrant(app)) {
      throw new OAuthError(
        'unauthorized_client',
        'This application is not registered for the implicit grant: use response_type=code with PKCE (RFC 9700 §2.1.2)',
      );
    }
    const scopes = parseScopes(params.get('scope'));
    const codeChallenge = responseType === 'code' ? challengeOf(params) : undefined;
    if (responseType === 'code' && codeChallenge === undefined && isPublicClient(app)) {
      throw new OAuthError(
        'invalid_request',
        'PKCE is required for this application: send code_challenge with code_challenge_method=S256 (RFC 9700 §2.1.1, RFC 8252 §8.1)',
      );
    }
    return { ...target, app, responseType, scopes, ...(codeChallenge === undefined ? {} : { codeChallenge }) };
  } catch (error) {
    if (error instanceof OAuthError) throw new AuthorizeError(error, target);
    throw error;
  }
}

/** The redirect URIs `app` may name: its own, and for the demo app those the server was started with. */
function registeredUris(context: CoreContext, app: AppRow): readonly string[] {
  const extra = context.redirectUris ?? [];
  return extra.length > 0 && demoApp(context.store)?.id === app.id
    ? [...app.redirect_uris, ...extra]
    : app.redirect_uris;
}

/** Names the URI received, and for the demo app how to register another one, so that a developer can fix it. */
function unregisteredMessage(context: CoreContext, app: AppRow, redirectUri: string): string {
  const named = `The redirect_uri ${quoted(redirectUri)} is not registered for this application.`;
  // A URI longer than any real one is named (cut short) but not repeated whole in the hint.
  if (demoApp(context.store)?.id !== app.id || redirectUri.length > 2048) return named;
  return `${named} To register it for the demo app, start storefront-server with --redirect-uri ${redirectUri} (or STOREFRONT_REDIRECT_URIS="${redirectUri}"; createServer({ redirectUris })).`;
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
