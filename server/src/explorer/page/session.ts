/**
 * Signing in: the implicit grant (RFC 6749 §4.2) through the server's own authorization page. A page keeps no
 * client secret, so its token cannot be renewed: when it expires or is refused, the user signs in again. The
 * token lives in `sessionStorage`, for this tab only.
 */
import { authorizeUrl, readImplicitFragment, type TokenInfo } from '@storefront-platform/sdk';
import type { ExplorerConfig } from './config.js';

const TOKEN = 'storefront-explorer:token';
const STATE = 'storefront-explorer:state';
/** The page address to come back to after signing in: the redirect URI is always `/explorer/`. */
const RETURN = 'storefront-explorer:return';

/** The scopes a user may ask for: what a token with each shows, and what it leaves out. */
export const SCOPES = {
  public: {
    shows: 'the root, the public shops and their products, the product search',
    hides: 'themes, templates, assets and orders, and every link that writes (edit, create, delete)',
  },
  admin: {
    shows:
      'everything public shows, and for the shops you administer their theme, templates, assets and orders, ' +
      'with the links that edit, create and delete them',
    hides: 'nothing of your own shops',
  },
} as const;

export type ScopeName = keyof typeof SCOPES;

/** The token kept for this tab, unless it has expired. */
export function savedToken(now = Date.now()): TokenInfo | undefined {
  const text = sessionStorage.getItem(TOKEN);
  const token = text ? (JSON.parse(text) as TokenInfo) : undefined;
  return token && (token.expiresAt === undefined || token.expiresAt > now) ? token : undefined;
}

/** Forgets the token (signing out, or a token the API refused). */
export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN);
}

/**
 * Back from the authorization page: the token (or the refusal, thrown as an `OAuthError`) taken out of the
 * fragment, and the fragment out of the address bar and the history. `undefined` when this is no such return.
 */
export function takeRedirect(): TokenInfo | undefined {
  const { hash, href } = location;
  if (!hash.includes('access_token=') && !hash.includes('error=')) return undefined;
  const state = sessionStorage.getItem(STATE) ?? '';
  sessionStorage.removeItem(STATE);
  history.replaceState(null, '', sessionStorage.getItem(RETURN) ?? location.pathname);
  sessionStorage.removeItem(RETURN);
  const token = readImplicitFragment({ callbackUrl: href, state });
  sessionStorage.setItem(TOKEN, JSON.stringify(token));
  return token;
}

/** Leaves for the authorization page, asking for `scope`; the page comes back to where it is now. */
export async function signIn(config: ExplorerConfig, scope: ScopeName): Promise<void> {
  const request = await authorizeUrl({
    authUrl: config.authUrl,
    clientId: config.clientId,
    redirectUri: `${location.origin}/explorer/`,
    scope,
    responseType: 'token',
  });
  sessionStorage.setItem(STATE, request.state);
  sessionStorage.setItem(RETURN, location.pathname + location.search);
  location.assign(request.url);
}
