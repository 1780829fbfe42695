/**
 * Signing in from a browser page with the authorization code flow and PKCE (RFC 9700): a browser app keeps no client
 * secret, so it exchanges the code as a public client, with its client id and the PKCE verifier that only this tab
 * knows. The example page and the browser tests' shop app both use it.
 */
import { authorizeUrl, exchangeCode, type TokenInfo } from '@storefront-platform/sdk';

/** Where a page keeps the pending sign-in (`state` and PKCE verifier) and the token it got, for its tab. */
export interface SignInKeys {
  state: string;
  token: string;
}

/** Where the authorize page sends the tab back. */
const redirectUri = () => `${location.origin}/callback`;

/** Back from the authorize page: the code exchanged for a token (saved), and the query out of the address bar. */
export async function tokenFromRedirect(
  config: { authUrl: string; clientId: string },
  keys: SignInKeys,
): Promise<TokenInfo | undefined> {
  const params = new URLSearchParams(location.search);
  if (location.pathname !== '/callback' || (!params.has('code') && !params.has('error'))) return undefined;
  const pending = JSON.parse(sessionStorage.getItem(keys.state) ?? '{}') as { state?: string; codeVerifier?: string };
  sessionStorage.removeItem(keys.state);
  const callbackUrl = location.href;
  history.replaceState(null, '', '/');
  const token = await exchangeCode({
    authUrl: config.authUrl,
    clientId: config.clientId,
    redirectUri: redirectUri(),
    callbackUrl,
    state: pending.state ?? '',
    codeVerifier: pending.codeVerifier ?? '',
  });
  sessionStorage.setItem(keys.token, JSON.stringify(token));
  return token;
}

/** Sends the tab to the authorize page, to come back to `{origin}/callback` with a code for a token of `scope`. */
export async function startSignIn(
  config: { authUrl: string; clientId: string },
  scope: 'admin' | 'public',
  keys: SignInKeys,
): Promise<void> {
  const request = await authorizeUrl({
    authUrl: config.authUrl,
    clientId: config.clientId,
    // A loopback redirect URI of the demo app (a native app, which takes any port of them in the code flow).
    redirectUri: redirectUri(),
    scope,
  });
  sessionStorage.setItem(keys.state, JSON.stringify({ state: request.state, codeVerifier: request.codeVerifier }));
  location.assign(request.url);
}
