import type { Scope } from '@storefront-platform/sdk/internal';
import type { Store } from '../store/types.js';
import { OAuthError, quoted } from './errors.js';

/** Every scope the service knows, in the order responses list them. */
export const SCOPES: readonly Scope[] = ['admin', 'public'];

/** What a token gets when the request names no scope (wire contract). */
const DEFAULT_SCOPES: readonly Scope[] = ['public'];

function isScope(name: string): name is Scope {
  return (SCOPES as readonly string[]).includes(name);
}

/**
 * The scopes of a `scope` parameter. RFC 6749 §3.3 separates them by spaces; commas are accepted too
 * because this API reports scopes comma-separated and its older clients send them back that way.
 */
export function parseScopes(value: string | undefined): Scope[] {
  const names = (value ?? '').split(/[ ,]+/).filter(Boolean);
  if (names.length === 0) return [...DEFAULT_SCOPES];
  const unknown = names.find((name) => !isScope(name));
  if (unknown !== undefined) {
    throw new OAuthError('invalid_scope', `Unknown scope ${quoted(unknown)}; known scopes: ${SCOPES.join(', ')}`);
  }
  return SCOPES.filter((scope) => names.includes(scope));
}

/**
 * Refuses scopes the user may not hold. `admin` belongs to users who administer a shop (spec §1: use of
 * the API requires owning a shop); `public` is open to everyone.
 */
export function assertScopesAllowed(store: Store, userId: string, scopes: readonly Scope[]): void {
  if (scopes.includes('admin') && store.where('shops', 'owner_id', userId).length === 0) {
    throw new OAuthError('invalid_scope', 'The scope "admin" requires a user who administers a shop');
  }
}

/** Both spellings a token response carries: the API's comma-separated `scopes` and RFC 6749's `scope`. */
export function formatScopes(scopes: readonly Scope[]): { scopes: string; scope: string } {
  return { scopes: scopes.join(','), scope: scopes.join(' ') };
}
