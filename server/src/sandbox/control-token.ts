/** The control API's token: random at each start unless one is given, and then at least this hard to guess. */
import { randomBytes } from 'node:crypto';

/** A new random token (192 bits, base64url). */
export function newControlToken(): string {
  return randomBytes(24).toString('base64url');
}

/** What is wrong with a given token; `undefined`: nothing. */
export function controlTokenProblem(token: string): string | undefined {
  return /^[\x21-\x7e]{16,}$/.test(token) ? undefined : 'must be at least 16 printable characters without spaces';
}
