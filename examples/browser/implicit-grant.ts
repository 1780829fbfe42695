/**
 * Signing in from a browser page with the implicit grant: a browser app keeps no client secret, so the token
 * comes back in the URL fragment of the redirect. The example page and the browser tests' shop app both use it.
 */
import { authorizeUrl, readImplicitFragment, type TokenInfo } from '@storefront-platform/sdk';

/** Where a page keeps the grant's `state` and the token it got, for its tab. */
export interface SignInKeys {
  state: string;
  token: string;
}

/** Back from the authorize page: the token out of the fragment (saved), and the fragment out of the address bar. */
export function tokenFromRedirect(keys: SignInKeys): TokenInfo | undefined {
  if (!location.hash.includes('access_token=') && !location.hash.includes('error=')) return undefined;
  const state = sessionStorage.getItem(keys.state) ?? '';
  sessionStorage.removeItem(keys.state);
  const href = location.href;
  history.replaceState(null, '', '/');
  const token = readImplicitFragment({ callbackUrl: href, state });
  sessionStorage.setItem(keys.token, JSON.stringify(token));
  return token;
}

/** Sends the tab to the authorize page, to come back to `{origin}/callback` with a token of `scope`. */
export async function startSignIn(
  config: { authUrl: string; clientId: string },
  scope: 'admin' | 'public',
  keys: SignInKeys,
): Promise<void> {
  const request = await authorizeUrl({
    authUrl: config.authUrl,
    clientId: config.clientId,
    // One of the redirect URIs registered for the app (the demo app has http://localhost:8080/callback).
    redirectUri: `${location.origin}/callback`,
    scope,
    responseType: 'token',
  });
  sessionStorage.setItem(keys.state, request.state);
  location.assign(request.url);
}
