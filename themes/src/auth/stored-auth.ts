/**
 * The SDK client of a stored session. A user's token is kept alive through the JWT bearer grant (`authorized`),
 * and each renewed token is saved at once: renewing revokes the old one, so the next run must find the new one.
 */
import {
  type AuthStrategy,
  authorized,
  type Client,
  clientCredentials,
  createClient,
  type TokenInfo,
} from '@storefront-platform/sdk';
import type { AppCredentials, ConfigStore, Session } from '../config/store.js';
import { CliError } from '../errors.js';
import { MAX_DOCUMENT_BYTES } from '../theme/limits.js';
import { VERSION } from '../version.js';
import { endpointsOf } from './connection.js';
import { sessionTokenStore } from './session-token-store.js';
import { SCOPE } from './sign-in.js';

/** Sent as `User-Agent`, so that the server's log tells this tool's requests apart. */
const USER_AGENT = `storefront-themes/${VERSION}`;

/**
 * `authorized` over the stored token, which the session file keeps for every run at once (see
 * {@link sessionTokenStore}): a token renewed here is saved there, and one renewed by another run is adopted.
 */
function storedToken(store: ConfigStore, app: AppCredentials, session: Session, token: TokenInfo): AuthStrategy {
  return authorized({
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    authUrl: endpointsOf(app).authUrl,
    accessToken: token.accessToken,
    expiresAt: token.expiresAt,
    owner: `user:${session.user}`,
    tokenStore: sessionTokenStore(store, session),
  });
}

/**
 * A client of the stored session; a usage error when nobody is logged in. `cache: false` leaves out the SDK's
 * HTTP cache, for a command that reads no URL twice: a push, whose every write would pay the cache's invalidation
 * for nothing (about 6 % of the processor time of a push to many shops). `watch` and `dev` keep it: they read the
 * theme again and again, answered by a 304 while it is unchanged.
 */
export async function storedClient(
  store: ConfigStore,
  options: { cache?: false } = {},
): Promise<{ client: Client; session: Session }> {
  const [app, session] = [await store.credentials(), await store.session()];
  if (!app || !session) {
    throw new CliError('not logged in: run storefront-themes login (login --client-credentials in CI)');
  }
  const { baseUrl, authUrl } = endpointsOf(session);
  const auth =
    session.grant === 'client_credentials' || !session.token
      ? clientCredentials({
          clientId: app.clientId,
          clientSecret: app.clientSecret,
          authUrl,
          scope: SCOPE,
          // Kept between runs like a user's token, so that a run sends no token request while the last one lives.
          tokenStore: sessionTokenStore(store, session),
        })
      : storedToken(store, app, session, session.token);
  // No answer the API may send is larger: a server cannot make the tool hold more, whatever it sends.
  return {
    client: createClient({ baseUrl, auth, userAgent: USER_AGENT, maxResponseSize: MAX_DOCUMENT_BYTES, ...options }),
    session,
  };
}
