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
  OAuthError,
  type TokenInfo,
} from 'storefront-sdk';
import type { AppCredentials, ConfigStore, Session } from '../config/store.js';
import { CliError } from '../errors.js';
import { VERSION } from '../version.js';
import { endpointsOf } from './connection.js';
import { SCOPE } from './sign-in.js';

/** Sent as `User-Agent`, so that the server's log tells this tool's requests apart. */
export const USER_AGENT = `storefront-themes/${VERSION}`;

/**
 * `authorized` over the stored token, which another run may renew meanwhile (a `watch` in another terminal): a
 * renewal refused because the token was already exchanged then adopts the token that run saved.
 */
function storedToken(store: ConfigStore, app: AppCredentials, session: Session, token: TokenInfo): AuthStrategy {
  let held = token;
  const strategy = (info: TokenInfo) =>
    authorized({
      ...app,
      authUrl: endpointsOf(app).authUrl,
      accessToken: info.accessToken,
      expiresAt: info.expiresAt,
      owner: `user:${session.user}`,
      onToken: async (next) => {
        held = next;
        await store.saveSession({ ...session, token: next });
      },
    });
  let current = strategy(held);
  const adopt = async (error: unknown): Promise<boolean> => {
    if (!(error instanceof OAuthError)) return false;
    const stored = (await store.session())?.token;
    if (!stored || stored.accessToken === held.accessToken) return false;
    held = stored;
    current = strategy(stored);
    return true;
  };
  return {
    async credentials(signal) {
      try {
        return await current.credentials(signal);
      } catch (error) {
        if (await adopt(error)) return current.credentials(signal);
        throw error;
      }
    },
    async refresh(failed, signal) {
      try {
        return await current.refresh!(failed, signal);
      } catch (error) {
        // The adopted token is not the one that failed: the keeper retries with it, no token request.
        if (await adopt(error)) return current.refresh!(failed, signal);
        throw error;
      }
    },
  };
}

/** A client of the stored session; a usage error when nobody is logged in. */
export async function storedClient(store: ConfigStore): Promise<{ client: Client; session: Session }> {
  const [app, session] = [await store.credentials(), await store.session()];
  if (!app || !session) {
    throw new CliError('not logged in: run storefront-themes login (login --client-credentials in CI)');
  }
  const { baseUrl, authUrl } = endpointsOf(session);
  const auth =
    session.grant === 'client_credentials' || !session.token
      ? clientCredentials({ ...app, authUrl, scope: SCOPE })
      : storedToken(store, app, session, session.token);
  return { client: createClient({ baseUrl, auth, userAgent: USER_AGENT }), session };
}
