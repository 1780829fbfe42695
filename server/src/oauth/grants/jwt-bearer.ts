import type { CoreContext } from '../../core/types.js';
import type { TokenRow } from '../../store/types.js';
import { verifyAssertion } from '../assertion.js';
import { authenticateClient, type ClientCredentials } from '../clients.js';
import { OAuthError, quoted } from '../errors.js';
import { requireParam } from '../params.js';
import { assertScopesAllowed, parseScopes } from '../scopes.js';
import { findToken, type IssuedToken, insertToken } from '../tokens.js';

/** The grant type of RFC 7523, also the `assertion_type` of the legacy `grant_type=assertion` form. */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * RFC 7523 §2.1: exchanges an access token (expired or not) named by a signed assertion for a new one with the
 * same user and scopes, and revokes the old one, so that each token can be exchanged once.
 *
 * The assertion's MAC authenticates the client, so no client authentication is needed (spec §5.1). A client that
 * only names itself (`client_id` without a secret, as RFC 7523 §3.1 clients such as oauth4webapi do) must be the
 * assertion's issuer. When a client does authenticate, it must succeed (otherwise `invalid_client`) and be the
 * issuer too. Either way a mismatch is `invalid_grant`: a request never carries two different client identities.
 *
 * A `scope` parameter may narrow the scopes, never widen them.
 */
export async function jwtBearerGrant(
  context: CoreContext,
  params: Map<string, string>,
  client: ClientCredentials | undefined,
): Promise<IssuedToken> {
  const { store } = context;
  // A secret that is sent must hold, whatever the assertion: a wrong one is the client's fault, not the grant's.
  const authenticated = client?.clientSecret !== undefined ? authenticateClient(store, client) : undefined;
  const { app, subject } = await verifyAssertion(context, requireParam(params, 'assertion'));
  const named = authenticated?.client_id ?? client?.clientId;
  if (named !== undefined && named !== app.client_id) {
    throw new OAuthError(
      'invalid_grant',
      `The assertion was issued by another client than ${quoted(named)} (its claim "iss" is ${quoted(app.client_id)})`,
    );
  }
  const old = findToken(store, subject);
  if (!old || old.app_id !== app.id) {
    throw new OAuthError('invalid_grant', 'The assertion subject is not an access token issued to this client');
  }
  if (old.revoked_at !== undefined) throw spent(old);
  if (!store.get('users', old.user_id))
    throw new OAuthError('invalid_grant', 'The user of this token no longer exists');
  const scopes = params.has('scope') ? parseScopes(params.get('scope')) : old.scopes;
  const widened = scopes.find((scope) => !old.scopes.includes(scope));
  if (widened) throw new OAuthError('invalid_scope', `The scope "${widened}" was not granted to the exchanged token`);
  assertScopesAllowed(store, old.user_id, scopes);

  return store.write((tx) => {
    // Checked again inside the write queue: of two concurrent exchanges only the first may succeed.
    const current = tx.get('tokens', old.id);
    if (!current || current.revoked_at !== undefined) throw spent(current ?? old);
    tx.update('tokens', old.id, { revoked_at: context.clock.now() });
    // The new token stays in the family of the old one's code, so that a replay of that code reaches it too.
    return insertToken(tx, context, { appId: app.id, userId: old.user_id, scopes, codeId: current.code_id });
  });
}

/**
 * The refusal of a token that cannot be exchanged any more. A revoked one is told apart from an exchanged one: the
 * SDK takes "already exchanged" to mean that another instance holds the replacement, while a revoked token's
 * authorization is gone and the user must sign in again.
 */
function spent(token: TokenRow): OAuthError {
  if (token.revoked_because === 'code_replayed') {
    return new OAuthError(
      'invalid_grant',
      'The access token was revoked: its authorization code was used twice, so the authorization was withdrawn; sign in again',
    );
  }
  return new OAuthError('invalid_grant', 'The access token was already exchanged; each token can be exchanged once');
}
