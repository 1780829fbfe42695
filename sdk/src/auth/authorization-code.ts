import { checkCallback } from './callback.js';
import { type ClientCredentials, endpoint, requestToken, type TokenEndpointOptions } from './token-endpoint.js';
import type { TokenInfo } from './types.js';

/** Options of {@link exchangeCode}. */
export interface ExchangeCodeOptions extends TokenEndpointOptions {
  clientId: string;
  /** Confidential clients authenticate with HTTP Basic; public clients (a browser app) omit it and rely on PKCE. */
  clientSecret?: string;
  /** The same `redirect_uri` that the authorize URL carried. */
  redirectUri: string;
  /** The URL the browser came back to, `?code=…&state=…`. */
  callbackUrl: string;
  /** The `state` returned by `authorizeUrl`. */
  state: string;
  /** The `codeVerifier` returned by `authorizeUrl`. */
  codeVerifier: string;
  signal?: AbortSignal;
}

/**
 * Completes the authorization code flow: checks the callback (error, state) and exchanges its code, with the PKCE
 * verifier, for a token. Pass the result to `authorized()` to use and refresh it.
 */
export async function exchangeCode(options: ExchangeCodeOptions): Promise<TokenInfo> {
  const params = new URL(options.callbackUrl).searchParams;
  checkCallback(options.callbackUrl, params, options.state);
  const code = params.get('code');
  if (!code) throw new TypeError('exchangeCode: the callback URL carries no code');
  const grant: Record<string, string> = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: options.redirectUri,
    code_verifier: options.codeVerifier,
  };
  let client: ClientCredentials | undefined;
  if (options.clientSecret === undefined) grant.client_id = options.clientId;
  else client = { clientId: options.clientId, clientSecret: options.clientSecret };
  return requestToken({ ...endpoint(options), client, params: grant, signal: options.signal });
}
