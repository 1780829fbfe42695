import { callbackError, checkCallback } from './callback.js';
import { tokenInfoFrom } from './token-endpoint.js';
import type { TokenInfo } from './types.js';

/** Options of {@link readImplicitFragment}. */
export interface ImplicitFragmentOptions {
  /** The URL the browser came back to, `#access_token=…&token_type=Bearer&expires_in=…&scope=…&state=…`. */
  callbackUrl: string;
  /** The `state` returned by `authorizeUrl`. */
  state: string;
  /** Epoch ms now, which dates the expiry; injectable so that tests can move time. Defaults to `Date.now`. */
  now?: () => number;
}

/**
 * Reads the token of the implicit flow from the URL the browser came back to, checking `state` against the one
 * sent. Clear the fragment from the address bar afterwards.
 */
export function readImplicitFragment({ callbackUrl, state, now = Date.now }: ImplicitFragmentOptions): TokenInfo {
  const params = new URLSearchParams(new URL(callbackUrl).hash.slice(1));
  checkCallback(callbackUrl, params, state);
  const token = tokenInfoFrom(Object.fromEntries(params), now());
  if (token) return token;
  throw callbackError(callbackUrl, 'invalid_response', 'the fragment carries no bearer access token');
}
