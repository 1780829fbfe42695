/**
 * What `setup` and `login` keep in the user's configuration folder (`$XDG_CONFIG_HOME/storefront-themes`, by
 * default `~/.config/storefront-themes`): the app's credentials and the user's session, each in its own file so
 * that renewing the token every hour does not rewrite the secret.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { TokenInfo } from '@storefront-platform/sdk';
import { UsageError } from '../errors.js';
import { readPrivate, removePrivate, writePrivate } from './private-file.js';

/** The server's origin when none is configured: the reference server's default. */
export const DEFAULT_URL = 'http://127.0.0.1:4000';

/** The developer's app, as registered on the platform, and where the platform is. */
export interface AppCredentials {
  /** The origin: the API root is `{url}/v1`, the token endpoint `{url}/oauth/token`. */
  url: string;
  clientId: string;
  clientSecret: string;
}

/** How the user signed in. */
export type Grant = 'authorization_code' | 'password' | 'client_credentials';

/** A signed-in user: the token to use (renewed through the JWT bearer grant), or none for client credentials. */
export interface Session {
  url: string;
  grant: Grant;
  /** Whom the API says the token acts for (`user_name` of the root). */
  user: string;
  /** The token in use: a user's is renewed through the JWT bearer grant, the app's own asked for again. */
  token?: TokenInfo;
}

/** Where the files are: `XDG_CONFIG_HOME` when set, as the XDG base directory specification says. */
export function configDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(homedir(), '.config');
  return join(base, 'storefront-themes');
}

/** A login's name: also a folder's name, so a narrow alphabet. */
export const LOGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The store of a named login (`login --login NAME`): its own app and session in `logins/NAME` of the
 * configuration folder, so that one developer keeps a login per platform or client (an agency's shops under
 * several owners) and an environment names the one to use. Unnamed: the configuration folder itself.
 */
export function loginStore(dir: string, name?: string): ConfigStore {
  if (name === undefined) return new ConfigStore(dir);
  if (!LOGIN_NAME.test(name)) {
    throw new UsageError(`${JSON.stringify(name)} is not a login name (letters, digits, ".", "_", "-")`);
  }
  return new ConfigStore(join(dir, 'logins', name));
}

export class ConfigStore {
  constructor(readonly dir: string) {}

  get credentialsFile(): string {
    return join(this.dir, 'credentials.json');
  }

  get sessionFile(): string {
    return join(this.dir, 'session.json');
  }

  credentials(): Promise<AppCredentials | undefined> {
    return readPrivate<AppCredentials>(this.credentialsFile);
  }

  saveCredentials(credentials: AppCredentials): Promise<void> {
    return writePrivate(this.credentialsFile, credentials);
  }

  session(): Promise<Session | undefined> {
    return readPrivate<Session>(this.sessionFile);
  }

  saveSession(session: Session): Promise<void> {
    return writePrivate(this.sessionFile, session);
  }

  forgetSession(): Promise<boolean> {
    return removePrivate(this.sessionFile);
  }

  /** Deletes both files; whether there was anything to delete. */
  async clear(): Promise<boolean> {
    const [session, credentials] = [await this.forgetSession(), await removePrivate(this.credentialsFile)];
    return session || credentials;
  }
}
