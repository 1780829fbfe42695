import type { ClientCredentials } from './client-authentication.js';
import { endpoint, requestToken, type TokenEndpointOptions } from './token-endpoint.js';
import { type OnToken, TokenKeeper } from './token-keeper.js';
import type { SharedTokenOptions } from './token-store.js';

/** What a grant that needs no previous token takes: the client, the endpoint, the sharing, `onToken`. */
export interface StandaloneGrantOptions extends ClientCredentials, TokenEndpointOptions, SharedTokenOptions {
  onToken?: OnToken;
}

/**
 * The keeper of a grant that needs no previous token (client credentials, password): each token is a fresh request
 * of `params` with the client's credentials, kept under `owner`.
 */
export function standaloneKeeper(
  options: StandaloneGrantOptions,
  owner: string,
  params: Record<string, string>,
): TokenKeeper {
  const { clientId, clientSecret } = options;
  return new TokenKeeper({
    owner,
    authUrl: options.authUrl,
    standalone: true,
    obtain: (_, fetch) => requestToken({ ...endpoint(options, fetch), client: { clientId, clientSecret }, params }),
    onToken: options.onToken,
    store: options.tokenStore,
    lease: options.refreshLease,
    now: options.now ?? Date.now,
  });
}
