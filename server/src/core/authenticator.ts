/**
 * The API's view of the OAuth service's bearer check: a principal, or the 401/400 to answer with.
 * Verifying a token hashes it (SHA-256 in pure JS, platform-neutral) and that, with its garbage, was a
 * fifth of the server's work per request. So a verified Authorization header is remembered for as long as
 * the check's answer cannot change: while its token row and user row are the ones it was checked against
 * (a store replaces a row on every change: a revocation, a new expiry, a deleted user) and the token has not
 * expired. Other tokens coming and going leave it be.
 */

import { Lru } from '@storefront-platform/sdk/internal';
import { HttpError } from '../http/http-error.js';
import { authenticate, bearerChallenge } from '../oauth/index.js';
import type { TokenRow, UserRow } from '../store/types.js';
import type { CoreContext, CoreRequest, Principal } from './types.js';

/** Resolves the caller of an API request: a principal, or the error to answer with. */
export type Authenticator = (request: CoreRequest, allowQueryToken: boolean) => Principal | HttpError;

interface Verified {
  principal: Principal;
  token: TokenRow;
  user: UserRow;
}

/** Headers remembered at most; past it the oldest go (a busy server meets new tokens all the time). */
const CAPACITY = 1000;

export function createAuthenticator(context: CoreContext): Authenticator {
  const { store, clock } = context;
  const verified = new Lru<string, Verified>({ maxEntries: CAPACITY });

  return (request, allowQueryToken) => {
    // A JSONP request may carry its token in the query instead: checked in full every time.
    const header = allowQueryToken ? null : request.headers.get('authorization');
    if (header) {
      const hit = verified.get(header);
      if (
        hit &&
        hit.token.expires_at > clock.now() &&
        store.get('tokens', hit.token.id) === hit.token &&
        store.get('users', hit.user.id) === hit.user
      ) {
        return hit.principal;
      }
      if (hit) verified.delete(header);
    }
    const result = authenticate(context, request, { allowQueryToken });
    if (!result.ok) {
      return new HttpError(result.status, result.message, undefined, { 'www-authenticate': bearerChallenge(result) });
    }
    const token = store.get('tokens', result.principal.tokenId);
    const user = store.get('users', result.principal.userId);
    if (header && token && user) verified.set(header, { principal: result.principal, token, user });
    return result.principal;
  };
}
