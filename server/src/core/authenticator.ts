/**
 * The API's view of the OAuth service's bearer check: a principal, or the 401/400 to answer with.
 * Verifying a token hashes it (SHA-256 in pure JS, platform-neutral) and that, with its garbage, was a
 * fifth of the server's work per request. So a verified Authorization header is remembered for as long as
 * the check's answer cannot change: while the token, user and app collections stay as they were (a
 * revocation, a deleted user, any new token changes them) and the token has not expired.
 */
import { HttpError } from '../http/http-error.js';
import { authenticate, bearerChallenge } from '../oauth/index.js';
import type { CoreContext, CoreRequest, Principal } from './types.js';

/** Resolves the caller of an API request: a principal, or the error to answer with. */
export type Authenticator = (request: CoreRequest, allowQueryToken: boolean) => Principal | HttpError;

interface Verified {
  principal: Principal;
  /** Epoch ms at which the token expires. */
  expiresAt: number;
  tokens: number;
  users: number;
  apps: number;
}

/** Headers remembered at most; past it the oldest go (a busy server meets new tokens all the time). */
const CAPACITY = 1000;

export function createAuthenticator(context: CoreContext): Authenticator {
  const { store, clock } = context;
  const verified = new Map<string, Verified>();

  return (request, allowQueryToken) => {
    // A JSONP request may carry its token in the query instead: checked in full every time.
    const header = allowQueryToken ? null : request.headers.get('authorization');
    if (header) {
      const hit = verified.get(header);
      if (
        hit &&
        hit.expiresAt > clock.now() &&
        hit.tokens === store.revision('tokens') &&
        hit.users === store.revision('users') &&
        hit.apps === store.revision('apps')
      ) {
        return hit.principal;
      }
      verified.delete(header);
    }
    const result = authenticate(context, request, { allowQueryToken });
    if (!result.ok) {
      return new HttpError(result.status, result.message, undefined, { 'www-authenticate': bearerChallenge(result) });
    }
    const row = store.get('tokens', result.principal.tokenId);
    if (header && row) {
      verified.set(header, {
        principal: result.principal,
        expiresAt: row.expires_at,
        tokens: store.revision('tokens'),
        users: store.revision('users'),
        apps: store.revision('apps'),
      });
      if (verified.size > CAPACITY) verified.delete(verified.keys().next().value!);
    }
    return result.principal;
  };
}
