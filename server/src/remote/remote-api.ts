/**
 * An API of this kind elsewhere (the real one, or another reference server), signed in with an app's credentials:
 * what `storefront-server import` copies and `storefront-server drift` compares, both read through the SDK.
 */
import { type AuthStrategy, type Client, clientCredentials, createClient, password } from '@storefront-platform/sdk';

/** How to reach and sign in to another API. */
export interface RemoteApi {
  /** The API's root, e.g. `https://api.example.com/v1` (its origin is the authorization service's). */
  url: string;
  clientId: string;
  clientSecret: string;
  /**
   * A user of the app, signed in with the password grant, whose shops are read; without it, the app acts as the
   * user who registered it (client credentials).
   */
  login?: string;
  /** The password of {@link RemoteApi.login}. */
  password?: string;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  /** Limit per attempt of a request, in ms (the SDK's `timeout`). Default 30 000. */
  timeout?: number;
  /** The `fetch` to use (a test's, a proxy's). Default: the global one. */
  fetch?: typeof fetch;
}

/** A bad URL or credentials given to {@link connectRemote}: said as is, before any request. */
export class RemoteApiError extends Error {
  override name = 'RemoteApiError';
}

/** The authorization service of an API root: its origin, as the spec's `{auth_url}`. */
function authUrlOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RemoteApiError(
      `${JSON.stringify(url)} is not a URL; give the API's root, e.g. https://api.example.com/v1`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RemoteApiError(`${url} is not an http(s) URL`);
  }
  return parsed.origin;
}

/** An SDK client of `remote`, signed in with the admin scope (the shops' themes need it). */
export function connectRemote(remote: RemoteApi): Client {
  const authUrl = authUrlOf(remote.url);
  if (!remote.clientId || !remote.clientSecret) throw new RemoteApiError('an app client id and secret are needed');
  if (remote.login !== undefined && !remote.password)
    throw new RemoteApiError(`a password is needed for ${remote.login}`);
  const endpoint = {
    authUrl,
    clientId: remote.clientId,
    clientSecret: remote.clientSecret,
    scope: 'admin',
    ...(remote.timeout !== undefined && { timeout: remote.timeout }),
  };
  const auth: AuthStrategy =
    remote.login === undefined
      ? clientCredentials(endpoint)
      : password({ ...endpoint, username: remote.login, password: remote.password ?? '' });
  return createClient({
    baseUrl: remote.url,
    auth,
    ...(remote.fetch && { fetch: remote.fetch }),
    ...(remote.timeout !== undefined && { timeout: remote.timeout }),
  });
}

/**
 * The usage lines of the sign-in flags, shared by the commands that read another API. Secrets come from the
 * environment only, so that they stay out of shell histories and process lists.
 */
export const REMOTE_USAGE = `  --client-id ID     the app's client id (or STOREFRONT_REMOTE_CLIENT_ID)
  --login LOGIN      a user of the app whose shops are read (or
                     STOREFRONT_REMOTE_LOGIN); without it, the app's own user
  STOREFRONT_REMOTE_CLIENT_SECRET   the app's client secret (environment only)
  STOREFRONT_REMOTE_PASSWORD        the user's password (environment only)`;

/** The flags of {@link REMOTE_USAGE}, for `readCommandArgs`. */
export const REMOTE_OPTIONS = {
  'client-id': { type: 'string' },
  login: { type: 'string' },
} as const;

/** A {@link RemoteApi} from a command's flags and the environment; a missing credential is a {@link RemoteApiError}. */
export function remoteFromArgs(
  url: string,
  values: { 'client-id'?: string; login?: string },
  env: NodeJS.ProcessEnv = process.env,
): RemoteApi {
  const clientId = values['client-id'] ?? env.STOREFRONT_REMOTE_CLIENT_ID;
  const clientSecret = env.STOREFRONT_REMOTE_CLIENT_SECRET;
  const login = values.login ?? env.STOREFRONT_REMOTE_LOGIN;
  if (!clientId) throw new RemoteApiError('--client-id (or STOREFRONT_REMOTE_CLIENT_ID) is needed');
  if (!clientSecret) throw new RemoteApiError('STOREFRONT_REMOTE_CLIENT_SECRET is needed');
  if (login !== undefined && !env.STOREFRONT_REMOTE_PASSWORD) {
    throw new RemoteApiError(`STOREFRONT_REMOTE_PASSWORD is needed for --login ${login}`);
  }
  return { url, clientId, clientSecret, login, password: env.STOREFRONT_REMOTE_PASSWORD };
}
