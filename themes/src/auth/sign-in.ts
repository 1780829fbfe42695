/**
 * The three ways `login` obtains a session: the browser (authorization code with PKCE), a password typed in
 * the terminal (password grant), or the app's own credentials (client credentials, for CI). Each checks the
 * result with one request to the API root, which says whom the token acts for.
 */
import {
  type AuthStrategy,
  bearer,
  clientCredentials,
  createClient,
  password,
  type TokenInfo,
} from '@storefront-platform/sdk';
import type { AppCredentials, Grant, Session } from '../config/store.js';
import { CliError } from '../errors.js';
import { endpointsOf } from './connection.js';
import { type BrowserSignIn, signInWithBrowser } from './loopback.js';

/** Themes are read and written with the `admin` scope of the shop's administrator. */
export const SCOPE = 'admin';

async function sessionOf(app: AppCredentials, grant: Grant, auth: AuthStrategy, token?: () => TokenInfo | undefined) {
  const root = await createClient({ baseUrl: endpointsOf(app).baseUrl, auth }).root();
  if (!root.properties.scopes.split(',').includes(SCOPE)) {
    throw new CliError(`the server granted "${root.properties.scopes}" rather than "${SCOPE}": themes need ${SCOPE}`);
  }
  const session: Session = { url: app.url, grant, user: root.properties.user_name };
  const held = token?.();
  return held ? { ...session, token: held } : session;
}

export function signInWithClientCredentials(app: AppCredentials): Promise<Session> {
  let token: TokenInfo | undefined;
  const { clientId, clientSecret } = app;
  const auth = clientCredentials({
    clientId,
    clientSecret,
    authUrl: endpointsOf(app).authUrl,
    scope: SCOPE,
    onToken: (info) => {
      token = info;
    },
  });
  return sessionOf(app, 'client_credentials', auth, () => token);
}

export function signInWithPassword(app: AppCredentials, username: string, secret: string): Promise<Session> {
  let token: TokenInfo | undefined;
  const auth = password({
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    authUrl: endpointsOf(app).authUrl,
    username,
    password: secret,
    scope: SCOPE,
    onToken: (info) => {
      token = info;
    },
  });
  return sessionOf(app, 'password', auth, () => token);
}

export async function signInInBrowser(app: AppCredentials, options: BrowserSignIn): Promise<Session> {
  const token = await signInWithBrowser(app, { ...options, scope: SCOPE });
  return sessionOf(app, 'authorization_code', bearer(token.accessToken), () => token);
}
