import type { CoreContext } from '../../core/types.js';
import { authenticateClient, type ClientCredentials } from '../clients.js';
import { OAuthError } from '../errors.js';
import { assertScopesAllowed, parseScopes } from '../scopes.js';
import { type IssuedToken, issueToken } from '../tokens.js';

/** RFC 6749 §4.4. The token acts as the app's owner (wire contract). */
export function clientCredentialsGrant(
  context: CoreContext,
  params: Map<string, string>,
  client: ClientCredentials | undefined,
): Promise<IssuedToken> {
  const app = authenticateClient(context.store, client);
  if (!context.store.get('users', app.owner_id)) {
    throw new OAuthError('unauthorized_client', 'This client has no owner for its tokens to act as');
  }
  const scopes = parseScopes(params.get('scope'));
  assertScopesAllowed(context.store, app.owner_id, scopes);
  return issueToken(context, { appId: app.id, userId: app.owner_id, scopes });
}
