import type { CoreContext } from '../../core/types.js';
import type { AppRow } from '../../store/types.js';
import { isPublicClient } from '../client-kind.js';
import { authenticateClient, type ClientCredentials, findApp } from '../clients.js';
import { redeemCode } from '../codes.js';
import { requireParam } from '../params.js';
import type { IssuedToken } from '../tokens.js';

/**
 * RFC 6749 §4.1.3 with PKCE (RFC 7636). A confidential client (a web app) authenticates; a public one (a native
 * app, a browser page) may instead name itself with `client_id` alone, its code then proven by the PKCE verifier
 * that its authorization request had to commit to. `redirect_uri` is required because the authorization endpoint
 * always requires it.
 */
export function authorizationCodeGrant(
  context: CoreContext,
  params: Map<string, string>,
  client: ClientCredentials | undefined,
): Promise<IssuedToken> {
  const app = clientOf(context, client);
  const code = requireParam(params, 'code');
  const redirectUri = requireParam(params, 'redirect_uri');
  const codeVerifier = params.get('code_verifier');
  return redeemCode(context, app, {
    code,
    redirectUri,
    proofOnly: client?.clientSecret === undefined,
    ...(codeVerifier === undefined ? {} : { codeVerifier }),
  });
}

function clientOf(context: CoreContext, client: ClientCredentials | undefined): AppRow {
  if (client === undefined || client.clientSecret !== undefined) return authenticateClient(context.store, client);
  const app = findApp(context.store, client.clientId);
  if (!app || !isPublicClient(app)) return authenticateClient(context.store, client);
  return app;
}
