/**
 * The demo user's password hash for the seed. A scrypt run costs ~80 ms by design, which is most of what a mock
 * took to start; the seed is deterministic, so the hash of a password it is asked for often is known in advance.
 */
import { encodeBase64Url } from '@storefront-platform/sdk/internal';
import { hashPassword } from '../oauth/secrets.js';

/**
 * Hashes computed once, at build time, by `hashPassword(password, salt)` (test/seed checks each against a fresh
 * run): the MSW mock's fixed demo password with the salt the default seed draws. Keyed by password and salt.
 */
const PRECOMPUTED: ReadonlyMap<string, string> = new Map([
  [
    'msw-demo-password bf50fSNnPyd9EWXESTAKbQ',
    'scrypt$16384$8$1$bf50fSNnPyd9EWXESTAKbQ$yJJR_F5fXZY2b3hNNdRXGB5vcAlS6NW5r4DMPySckq0',
  ],
]);

/** Hashes computed in this process: a second seed with the same password and salt costs nothing. */
const computed = new Map<string, string>();

/** `hashPassword(password, salt)`, from the precomputed table or this process's earlier runs when it can be. */
export function seedPasswordHash(password: string, salt: Uint8Array): string {
  const key = `${password} ${encodeBase64Url(salt)}`;
  let hash = PRECOMPUTED.get(key) ?? computed.get(key);
  if (hash === undefined) {
    hash = hashPassword(password, salt);
    computed.set(key, hash);
  }
  return hash;
}

/** The keys of the precomputed table as `[password, salt]`, for the test that recomputes them. */
export function precomputedPasswordHashes(): [password: string, salt: string, hash: string][] {
  return [...PRECOMPUTED].map(([key, hash]) => {
    const [password, salt] = key.split(' ') as [string, string];
    return [password, salt, hash];
  });
}
