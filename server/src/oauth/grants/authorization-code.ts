import type { CoreContext } from '../../core/types.js';
import { authenticateClient, type ClientCredentials } from '../clients.js';
import { redeemCode } from '../codes.js';
import { requireParam } from '../params.js';
import type { IssuedToken } from '../tokens.js';

/**
 * RFC 6749 §4.1.3 with PKCE (RFC 7636). Apps are confidential clients, so the client authenticates here too.
 * `redirect_uri` is required because the authorization endpoint always requires it.
 */
export function authorizationCodeGrant(
  context: CoreContext,
  params: Map<string, string>,
  client: ClientCredentials | undefined,
): Promise<IssuedToken> {
  const app = authenticateClient(context.store, client);
  const code = requireParam(params, 'code');
  const redirectUri = requireParam(params, 'redirect_uri');
  const codeVerifier = params.get('code_verifier');
  return redeemCode(context, app, { code, redirectUri, ...(codeVerifier === undefined ? {} : { codeVerifier }) });
}
