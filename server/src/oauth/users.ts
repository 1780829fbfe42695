import type { Store, UserRow } from '../store/types.js';
import { hashPassword, verifyPassword } from './secrets.js';

/** A hash no password matches (its salt is random), checked for unknown logins; computed on first use. */
let decoy: string | undefined;

/**
 * The user these credentials belong to, or `undefined`. An unknown login costs the same scrypt run as a wrong
 * password, so that response times do not reveal which logins exist.
 */
export function verifyLogin(store: Store, login: string, password: string): UserRow | undefined {
  const user = store.where('users', 'login', login)[0];
  decoy ??= hashPassword(crypto.getRandomValues(new Uint8Array(16)).join(','));
  const matches = verifyPassword(password, user?.password_hash ?? decoy);
  return user && matches ? user : undefined;
}
