import { encodeBase64Url } from '../shared/base64.js';
import { pkceChallenge, pkceVerifier } from './pkce.js';

/** Options of {@link authorizeUrl}. */
export interface AuthorizeUrlOptions {
  /** The authorization service, `{auth_url}` of the spec; the authorize endpoint is `/oauth/authorize` below it. */
  authUrl: string;
  clientId: string;
  /** Where the browser returns; one of the URIs registered for the client. */
  redirectUri: string;
  /** Scope to request (`admin`, `public`). */
  scope?: string;
  /** `code` (default): the authorization code flow with PKCE. `token`: the implicit flow. */
  responseType?: 'code' | 'token';
}

/** Where to send the user, and what to keep (e.g. in session storage) until the browser comes back. */
export interface AuthorizeRequest {
  url: string;
  /** Random; the callback must carry it back unchanged (CSRF protection, RFC 6749 §10.12). */
  state: string;
  /** The PKCE verifier the code exchange needs (code flow only). Keep it secret. */
  codeVerifier?: string;
}

/**
 * Builds the URL of the authorization endpoint: a random `state` and, for the code flow, a PKCE S256 challenge
 * whose verifier is returned for {@link exchangeCode}.
 */
export async function authorizeUrl(options: AuthorizeUrlOptions): Promise<AuthorizeRequest> {
  const responseType = options.responseType ?? 'code';
  const state = encodeBase64Url(crypto.getRandomValues(new Uint8Array(16)));
  const url = new URL(`${options.authUrl.replace(/\/+$/, '')}/oauth/authorize`);
  const query = url.searchParams;
  query.set('response_type', responseType);
  query.set('client_id', options.clientId);
  query.set('redirect_uri', options.redirectUri);
  if (options.scope !== undefined) query.set('scope', options.scope);
  query.set('state', state);
  if (responseType === 'token') return { url: url.href, state };
  const codeVerifier = pkceVerifier();
  query.set('code_challenge', await pkceChallenge(codeVerifier));
  query.set('code_challenge_method', 'S256');
  return { url: url.href, state, codeVerifier };
}
