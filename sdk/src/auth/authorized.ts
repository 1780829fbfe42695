import { OAuthError } from '../errors/oauth-error.js';
import type { ClientCredentials } from './client-authentication.js';
import { jwtAssertion } from './jwt-assertion.js';
import { tokenOwner } from './owner.js';
import { endpoint, requestToken, type TokenEndpointOptions, tokenUrl } from './token-endpoint.js';
import { type OnAuthorizationLost, type OnToken, TokenKeeper } from './token-keeper.js';
import type { SharedTokenOptions } from './token-store.js';
import type { AuthStrategy } from './types.js';

/** The grant type of RFC 7523 §2.1. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Options of {@link authorized}. */
export interface AuthorizedOptions extends ClientCredentials, TokenEndpointOptions, SharedTokenOptions {
  /** The access token the app holds (from the authorization code or implicit flow, or persisted by `onToken`). */
  accessToken: string;
  /**
   * Epoch ms at which `accessToken` expires, when known: it is then exchanged shortly before, not after a 401.
   * `undefined` allowed, so that a `TokenInfo`'s (optional) `expiresAt` passes as is under `exactOptionalPropertyTypes`.
   */
  expiresAt?: number | undefined;
  /**
   * Cache partition of this authorization's requests, stable across refreshes. Default: derived from a digest of
   * the first `accessToken`; pass the user's id to share a persistent cache across restarts.
   */
  owner?: string;
  /** Called once per new token: persist it, since the one it replaces is revoked. */
  onToken?: OnToken;
  /**
   * Called once when the authorization is lost: the server answered that the token was already exchanged, and no
   * instance sharing the `tokenStore` stored the new token within `refreshLease` (its holder died before it could).
   * Resolve with a token to go on with: the one `onToken` saved, or one of a new authorization. Without it, or when
   * it resolves with nothing or the lost token itself, every request fails with the `AuthorizationLostError`,
   * without another exchange.
   */
  onAuthorizationLost?: OnAuthorizationLost;
}

/** The server's refusal of an exchange because the token was exchanged already, by whoever then kept the new one. */
const alreadyExchanged = (error: unknown): error is OAuthError =>
  error instanceof OAuthError &&
  error.error === 'invalid_grant' &&
  /already exchanged/i.test(error.errorDescription ?? '');

/**
 * An existing authorization, kept alive through the JWT bearer grant (spec §5.1): on a 401 (or shortly before a
 * known expiry) the expired token is exchanged for a new one with the same user and scopes, in a JWT signed with
 * the client secret. The server accepts one exchange per token, so concurrent 401s share one exchange, and a
 * refused exchange is final: every later request fails with the same `OAuthError` until the user authorizes again
 * (an `AuthorizationLostError` when the token was exchanged already, and the new one is out of reach).
 */
export function authorized(options: AuthorizedOptions): AuthStrategy {
  if (options.accessToken === '') throw new TypeError('authorized: the access token is empty');
  const now = options.now ?? Date.now;
  const audience = tokenUrl(options.authUrl);
  return new TokenKeeper({
    owner: options.owner ?? tokenOwner(`token:${options.clientId}`, options.accessToken),
    authUrl: options.authUrl,
    standalone: false,
    exchanged: alreadyExchanged,
    onAuthorizationLost: options.onAuthorizationLost,
    initial: { accessToken: options.accessToken, tokenType: 'Bearer', scopes: [], expiresAt: options.expiresAt },
    obtain: async (previous, fetch) =>
      requestToken({
        ...endpoint(options, fetch),
        params: {
          grant_type: JWT_BEARER_GRANT,
          assertion: await jwtAssertion(
            { issuer: options.clientId, audience, subject: previous ?? options.accessToken, now: now() },
            options.clientSecret,
          ),
        },
      }),
    onToken: options.onToken,
    store: options.tokenStore,
    lease: options.refreshLease,
    now,
  });
}
