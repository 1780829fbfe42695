import { checkCallback } from './callback.js';
import type { ClientCredentials } from './client-authentication.js';
import { endpoint, requestToken, type TokenEndpointOptions } from './token-endpoint.js';
import type { TokenInfo } from './types.js';

/** Options of {@link exchangeCode}. */
export interface ExchangeCodeOptions extends TokenEndpointOptions {
  clientId: string;
  /**
   * The app's secret, sent with HTTP Basic. An app registered with a secret (a confidential client, which every
   * app of the reference server is) must pass it: without it the token endpoint answers `invalid_client`
   * (RFC 6749 §4.1.3), PKCE or not. Omit it only for an app registered as a public client (no secret), which then
   * names itself with `client_id` and relies on PKCE alone.
   */
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
 * verifier, for a token. Pass the result to `authorized()` to use and refresh it. An app registered with a
 * secret passes `clientSecret` here too (see {@link ExchangeCodeOptions.clientSecret}), else `invalid_client`.
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
