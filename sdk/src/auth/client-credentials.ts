import type { ClientCredentials } from './client-authentication.js';
import { standaloneKeeper } from './standalone-keeper.js';
import type { TokenEndpointOptions } from './token-endpoint.js';
import type { OnToken } from './token-keeper.js';
import type { SharedTokenOptions } from './token-store.js';
import type { AuthStrategy } from './types.js';

/** Options of {@link clientCredentials}. */
export interface ClientCredentialsOptions extends ClientCredentials, TokenEndpointOptions, SharedTokenOptions {
  /** Scope to request (`admin`, `public`); the server's default when absent. */
  scope?: string;
  /** Called once per new token. */
  onToken?: OnToken;
}

/**
 * The client credentials grant (spec §5.1): the app acts as the user that owns it. A token is fetched on first
 * use, again shortly before it expires, and again after a 401, once for all the requests that got it.
 */
export function clientCredentials(options: ClientCredentialsOptions): AuthStrategy {
  const { clientId, scope } = options;
  const params: Record<string, string> = { grant_type: 'client_credentials' };
  if (scope !== undefined) params.scope = scope;
  return standaloneKeeper(options, `client:${clientId}:${scope ?? ''}`, params);
}
