import type { CoreContext } from '../../core/types.js';
import { authenticateClient, type ClientCredentials } from '../clients.js';
import { OAuthError } from '../errors.js';
import { type LoginCheck, throttledMessage } from '../login-guard.js';
import { requireParam } from '../params.js';
import { assertScopesAllowed, parseScopes } from '../scopes.js';
import { type IssuedToken, issueToken } from '../tokens.js';

/**
 * RFC 6749 §4.3, resource owner password credentials. Too many failed logins: 429 `slow_down` with
 * `Retry-After`, the password unchecked.
 */
export async function passwordGrant(
  context: CoreContext,
  params: Map<string, string>,
  client: ClientCredentials | undefined,
  checkLogin: LoginCheck,
): Promise<IssuedToken> {
  const app = authenticateClient(context.store, client);
  const username = requireParam(params, 'username');
  const password = requireParam(params, 'password');
  const scopes = parseScopes(params.get('scope'));
  const outcome = await checkLogin({ app, login: username, password });
  if (outcome.status === 'throttled') {
    const { retryAfter } = outcome;
    throw new OAuthError('slow_down', throttledMessage(retryAfter), 429, { 'retry-after': String(retryAfter) });
  }
  if (outcome.status === 'refused') throw new OAuthError('invalid_grant', 'The username or password is incorrect');
  assertScopesAllowed(context.store, outcome.user.id, scopes);
  return issueToken(context, { appId: app.id, userId: outcome.user.id, scopes });
}
