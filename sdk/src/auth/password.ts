import type { ClientCredentials } from './client-authentication.js';
import { standaloneKeeper } from './standalone-keeper.js';
import type { TokenEndpointOptions } from './token-endpoint.js';
import type { OnToken } from './token-keeper.js';
import type { SharedTokenOptions } from './token-store.js';
import type { AuthStrategy } from './types.js';

/** Options of {@link password}. */
export interface PasswordOptions extends ClientCredentials, TokenEndpointOptions, SharedTokenOptions {
  /** The user's login. */
  username: string;
  password: string;
  /** Scope to request (`admin`, `public`); the server's default when absent. */
  scope?: string;
  /** Called once per new token. */
  onToken?: OnToken;
}

/**
 * The resource owner password credentials grant (spec §5.1), for trusted apps only. Tokens are fetched like
 * {@link clientCredentials}'s: on first use, shortly before expiry, and once after a 401.
 */
export function password(options: PasswordOptions): AuthStrategy {
  const { clientId, username, scope } = options;
  const params: Record<string, string> = { grant_type: 'password', username, password: options.password };
  if (scope !== undefined) params.scope = scope;
  // The app's id too: two apps of one user hold tokens of their own, also in one shared token store.
  return standaloneKeeper(options, `user:${clientId}:${username}:${scope ?? ''}`, params);
}
