import type { CoreContext } from '../../core/types.js';
import { authenticateClient, type ClientCredentials } from '../clients.js';
import { OAuthError } from '../errors.js';
import { requireParam } from '../params.js';
import { assertScopesAllowed, parseScopes } from '../scopes.js';
import { type IssuedToken, issueToken } from '../tokens.js';
import { verifyLogin } from '../users.js';

/** RFC 6749 §4.3, resource owner password credentials. */
export async function passwordGrant(
  context: CoreContext,
  params: Map<string, string>,
  client: ClientCredentials | undefined,
): Promise<IssuedToken> {
  const app = authenticateClient(context.store, client);
  const username = requireParam(params, 'username');
  const password = requireParam(params, 'password');
  const scopes = parseScopes(params.get('scope'));
  const user = await verifyLogin(context.store, username, password);
  if (!user) throw new OAuthError('invalid_grant', 'The username or password is incorrect');
  assertScopesAllowed(context.store, user.id, scopes);
  return issueToken(context, { appId: app.id, userId: user.id, scopes });
}
