import type { Scope } from '@storefront-platform/sdk/internal';
import type { CoreContext } from '../core/types.js';
import type { Store, TokenRow, Transaction } from '../store/types.js';
import { hashSecret, randomSecret } from './secrets.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Tokens that expired longer ago than this are deleted, so that the data file does not grow forever.
 * Until then an expired token can still be exchanged through the JWT bearer grant.
 */
const TOKEN_RETENTION_MS = 30 * DAY_MS;
/** Authorization codes live a minute; a day later nothing can refer to them any more. */
const CODE_RETENTION_MS = DAY_MS;
/** A purge scans every token: do it at most this often per store, on the write path of a new token. */
const PURGE_INTERVAL_MS = HOUR_MS;

/** When each store was last purged (by the injectable clock). */
const lastPurge = new WeakMap<Store, number>();

/** Whom a new token acts for and what it may do. */
export interface TokenGrant {
  appId: string;
  userId: string;
  scopes: readonly Scope[];
  /** The authorization code the token descends from (see `TokenRow.code_id`). */
  codeId?: string;
}

/** A freshly issued access token: the secret itself (shown once, never stored) and its stored row. */
export interface IssuedToken {
  token: string;
  row: TokenRow;
}

/** Issues an access token in its own write. */
export function issueToken(context: CoreContext, grant: TokenGrant): Promise<IssuedToken> {
  return context.store.write((tx) => insertToken(tx, context, grant));
}

/** Issues an access token inside a write that also changes other rows (a revoked token, a used code). */
export function insertToken(tx: Transaction, context: CoreContext, grant: TokenGrant): IssuedToken {
  const now = context.clock.now();
  const token = randomSecret();
  const row = tx.insert('tokens', {
    token_hash: hashSecret(token),
    app_id: grant.appId,
    user_id: grant.userId,
    scopes: [...grant.scopes],
    issued_at: now,
    expires_at: now + context.tokenTtl * 1000,
    ...(grant.codeId === undefined ? {} : { code_id: grant.codeId }),
  });
  purgeIfDue(tx, context.store, now);
  return { token, row };
}

/** The stored row of a token, by its hash (an indexed lookup). */
export function findToken(store: Store, token: string): TokenRow | undefined {
  return store.where('tokens', 'token_hash', hashSecret(token))[0];
}

function purgeIfDue(tx: Transaction, store: Store, now: number): void {
  const last = lastPurge.get(store);
  if (last !== undefined && now - last < PURGE_INTERVAL_MS && now >= last) return;
  lastPurge.set(store, now);
  for (const row of store.all('tokens')) if (row.expires_at < now - TOKEN_RETENTION_MS) tx.delete('tokens', row.id);
  for (const row of store.all('codes')) if (row.expires_at < now - CODE_RETENTION_MS) tx.delete('codes', row.id);
}
