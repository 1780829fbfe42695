import type { Store, UserRow } from '../store/types.js';
import { decoyPasswordHash, verifyPassword } from './secrets.js';

/** What an unknown login is checked against. */
const DECOY = decoyPasswordHash();

/**
 * The user these credentials belong to, or `undefined`. An unknown login costs the same scrypt run as a wrong
 * password, so that response times do not reveal which logins exist.
 */
export async function verifyLogin(store: Store, login: string, password: string): Promise<UserRow | undefined> {
  const user = store.where('users', 'login', login)[0];
  const matches = await verifyPassword(password, user?.password_hash ?? DECOY);
  return user && matches ? user : undefined;
}
