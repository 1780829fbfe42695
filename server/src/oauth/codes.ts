import type { Scope } from '@storefront-platform/sdk/internal';
import { isPkceValue } from '@storefront-platform/sdk/internal';
import type { CoreContext } from '../core/types.js';
import type { AppRow, AuthCodeRow, Transaction } from '../store/types.js';
import { OAuthError } from './errors.js';
import { verifierMatches } from './pkce.js';
import { hashSecret, randomSecret } from './secrets.js';
import { type IssuedToken, insertToken } from './tokens.js';

/** Lifetime of an authorization code: RFC 6749 §4.1.2 asks for short-lived codes (10 minutes at most). */
const CODE_TTL_MS = 60_000;

/** What the user approved on the consent page. */
export interface CodeGrant {
  app: AppRow;
  userId: string;
  redirectUri: string;
  scopes: readonly Scope[];
  /** S256 challenge, when the client sent one. */
  codeChallenge?: string;
}

/** The code to exchange at the token endpoint, as the redirect hands it to the client. */
export async function issueCode(context: CoreContext, grant: CodeGrant): Promise<string> {
  const code = randomSecret();
  await context.store.write((tx) =>
    tx.insert('codes', {
      code_hash: hashSecret(code),
      app_id: grant.app.id,
      user_id: grant.userId,
      redirect_uri: grant.redirectUri,
      scopes: [...grant.scopes],
      ...(grant.codeChallenge === undefined ? {} : { code_challenge: grant.codeChallenge }),
      expires_at: context.clock.now() + CODE_TTL_MS,
    }),
  );
  return code;
}

/** The token request's side of the authorization code grant. */
export interface CodeRedemption {
  code: string;
  redirectUri: string;
  codeVerifier?: string;
  /** The client named itself without a secret (a public client): the PKCE verifier is its only proof. */
  proofOnly?: boolean;
}

/** Exchanges a code for a token, once (RFC 6749 §4.1.3, RFC 7636 §4.6). Refusals are `invalid_grant` but for a malformed verifier. */
export async function redeemCode(context: CoreContext, app: AppRow, redemption: CodeRedemption): Promise<IssuedToken> {
  const { store } = context;
  const row = store.where('codes', 'code_hash', hashSecret(redemption.code))[0];
  if (!row || row.app_id !== app.id) {
    throw new OAuthError('invalid_grant', 'The authorization code is unknown or was issued to another client');
  }
  if (row.used_at !== undefined) {
    await store.write((tx) => revokeFamily(tx, context, row));
    throw alreadyUsed();
  }
  if (row.expires_at <= context.clock.now())
    throw new OAuthError('invalid_grant', 'The authorization code has expired');
  if (row.redirect_uri !== redemption.redirectUri) {
    throw new OAuthError('invalid_grant', 'The redirect_uri differs from the one of the authorization request');
  }
  if (redemption.proofOnly && row.code_challenge === undefined) {
    // A code of a request without PKCE (issued before public clients had to send it) proves nothing by itself.
    throw new OAuthError('invalid_client', 'Client authentication requires the client secret: this code had no PKCE');
  }
  checkVerifier(row.code_challenge, redemption.codeVerifier);
  if (!store.get('users', row.user_id)) throw new OAuthError('invalid_grant', 'The user of this code no longer exists');
  const issued = await store.write((tx) => {
    // Checked again inside the write queue (on PostgreSQL, under the write lock every process takes, on the rows
    // as committed): of concurrent redemptions only the first succeeds, and each loser is a replay like any other.
    const current = tx.get('codes', row.id);
    if (!current) return undefined;
    if (current.used_at !== undefined) {
      revokeFamily(tx, context, current);
      return undefined;
    }
    const issued = insertToken(tx, context, {
      appId: app.id,
      userId: row.user_id,
      scopes: row.scopes,
      codeId: row.id,
    });
    tx.update('codes', row.id, { used_at: context.clock.now(), token_id: issued.row.id });
    return issued;
  });
  if (!issued) throw alreadyUsed();
  return issued;
}

function alreadyUsed(): OAuthError {
  return new OAuthError('invalid_grant', 'The authorization code was already used');
}

/** RFC 7636 §4.6, and RFC 9700 "PKCE Downgrade Attack": a verifier without a challenge is refused too (PKCE downgrade). */
function checkVerifier(challenge: string | undefined, verifier: string | undefined): void {
  if (verifier !== undefined && !isPkceValue(verifier)) {
    throw new OAuthError('invalid_request', 'The code_verifier must be 43 to 128 unreserved characters (RFC 7636)');
  }
  if (challenge === undefined) {
    if (verifier !== undefined) {
      throw new OAuthError(
        'invalid_grant',
        'A code_verifier was sent but the authorization request had no code_challenge',
      );
    }
    return;
  }
  if (verifier === undefined) {
    throw new OAuthError(
      'invalid_grant',
      'The code_verifier is required: the authorization request had a code_challenge',
    );
  }
  if (!verifierMatches(verifier, challenge)) {
    throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge');
  }
}

/**
 * A code presented twice was probably intercepted: RFC 6749 §4.1.2 asks to revoke what it already granted, and
 * RFC 9700 everything since, so the token issued for it and each token exchanged from that one. Tokens
 * already exchanged keep when they were, and are marked too: an exchange attempt then says "revoked".
 */
function revokeFamily(tx: Transaction, context: CoreContext, code: AuthCodeRow): void {
  const family = new Set(tx.where('tokens', 'code_id', code.id));
  // Data written before families were recorded names the first token on the code only.
  const issued = code.token_id === undefined ? undefined : tx.get('tokens', code.token_id);
  if (issued) family.add(issued);
  const now = context.clock.now();
  for (const token of family) {
    if (token.revoked_because === 'code_replayed') continue;
    tx.update('tokens', token.id, { revoked_at: token.revoked_at ?? now, revoked_because: 'code_replayed' });
  }
}
