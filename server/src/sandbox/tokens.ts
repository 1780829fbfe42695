/**
 * Tokens a test makes without a token request, and tokens it makes expire: the MSW mock's `issueToken` and
 * `expireToken`, and their twins `POST /_sandbox/tokens` and `POST /_sandbox/tokens/expire`.
 */
import type { Scope } from '@storefront-platform/sdk/internal';
import type { CoreContext } from '../core/types.js';
import { demoApp } from '../explorer/client.js';
import { OAuthError } from '../oauth/errors.js';
import { assertScopesAllowed, SCOPES } from '../oauth/scopes.js';
import { findToken, issueToken } from '../oauth/tokens.js';
import { SandboxError } from './sandbox-error.js';

/** What token to issue. */
export interface IssueTokenOptions {
  /** Scope(s) of the token. `admin` needs a user who administers a shop, as at the token endpoint. */
  scope: Scope | readonly Scope[];
  /** Login of the user the token acts for. Default: the demo app's owner (the demo user). */
  user?: string;
}

/** A token issued by `issueToken`: the fields of the SDK's `TokenInfo`. */
export interface IssuedSandboxToken {
  accessToken: string;
  tokenType: 'Bearer';
  /** Epoch ms (by the sandbox's clock). */
  expiresAt: number;
  scopes: Scope[];
}

const refuse = (message: string): never => {
  throw new SandboxError(`issueToken: ${message}`, 400);
};

/** An access token of the demo app (the data's first app) for `user`, straight into the store. */
export async function issueSandboxToken(
  context: CoreContext,
  { scope, user }: IssueTokenOptions,
): Promise<IssuedSandboxToken> {
  const { store } = context;
  // Users and apps another process added, on a shared store: this one catches up first.
  await store.sync?.();
  const given = typeof scope === 'string' ? [scope] : Array.isArray(scope) ? [...scope] : undefined;
  if (!given || given.length === 0 || !given.every((s) => (SCOPES as readonly unknown[]).includes(s))) {
    refuse(`"scope" is one of ${SCOPES.join(', ')} or a list of them, got ${JSON.stringify(scope)}`);
  }
  const scopes = given as Scope[];
  if (user !== undefined && typeof user !== 'string') refuse(`"user" is a login, got ${JSON.stringify(user)}`);
  const app = demoApp(store);
  if (!app) return refuse('the data holds no app to issue a token for');
  const owner = user === undefined ? store.get('users', app.owner_id) : store.where('users', 'login', user)[0];
  if (!owner) return refuse(`no user ${user === undefined ? 'owns the demo app' : `"${user}"`}`);
  try {
    assertScopesAllowed(store, owner.id, scopes);
  } catch (error) {
    if (error instanceof OAuthError) refuse(error.message);
    throw error;
  }
  const issued = await issueToken(context, { appId: app.id, userId: owner.id, scopes });
  return { accessToken: issued.token, tokenType: 'Bearer', expiresAt: issued.row.expires_at, scopes };
}

/**
 * Makes `token` expire now (by the sandbox's clock): the API answers it with its 401 for an expired token, and it
 * can still be exchanged through the JWT bearer grant. False for a token never issued.
 */
export async function expireSandboxToken(context: Pick<CoreContext, 'store' | 'clock'>, token: string) {
  // A token another process issued, on a shared store: this one catches up first.
  await context.store.sync?.();
  const row = findToken(context.store, token);
  if (!row) return false;
  // Not past `now`: the clock may be one that tests move by hand, and an instant later is already expired.
  const at = Math.min(row.expires_at, context.clock.now());
  await context.store.write((tx) => tx.update('tokens', row.id, { expires_at: at }));
  return true;
}
