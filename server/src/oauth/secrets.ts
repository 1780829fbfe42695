/**
 * Secrets of the authorization service: random tokens, their stored hashes, password hashes.
 * Platform-neutral (Web Crypto, `../shared/sha256.js` and `../shared/scrypt.js`, native in Node and pure JS
 * elsewhere) because the same core runs inside MSW in a browser.
 */
import { decodeBase64Url, encodeBase64Url } from '@storefront-platform/sdk/internal';
import { scrypt, scryptAsync } from '../shared/scrypt.js';
import { sha256 } from '../shared/sha256.js';
import { Semaphore } from './semaphore.js';

/** scrypt cost: 2^14 is the interactive-login setting of RFC 7914 and costs ~80 ms in pure JS, ~40 natively. */
const SCRYPT = { N: 2 ** 14, r: 8, p: 1, dkLen: 32 } as const;

const encoder = new TextEncoder();

/** `n` random bytes, base64url: 32 for access tokens, client secrets and codes. */
export function randomSecret(n = 32): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(n)));
}

/**
 * {@link randomSecret} for a secret people paste into command lines (the demo app's client secret, the demo
 * password): drawn again while it begins with `-`, which a command line's parser would take for an option
 * (`storefront-server listen --client-secret -x…`). One draw in 64 is redrawn: a bit of entropy at most.
 */
export function typedSecret(n = 32): string {
  for (;;) {
    const secret = randomSecret(n);
    if (!secret.startsWith('-')) return secret;
  }
}

/** What is stored for a token or code: SHA-256, base64url. A leaked data file then grants nothing. */
export function hashSecret(secret: string): string {
  return encodeBase64Url(sha256(encoder.encode(secret)));
}

/**
 * A password hash in the form `scrypt$N$r$p$salt$hash`. Synchronous: for seeding and start-up, not for a
 * request path (it holds the event loop for the whole scrypt run).
 */
export function hashPassword(password: string, salt: Uint8Array = crypto.getRandomValues(new Uint8Array(16))): string {
  const hash = scrypt(encoder.encode(password), salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, encodeBase64Url(salt), encodeBase64Url(hash)].join('$');
}

/**
 * {@link hashPassword} without holding the event loop (scrypt on libuv's thread pool in Node): for a password set
 * while the server answers requests (a user added through the control API).
 */
export async function hashPasswordAsync(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await scryptAsync(encoder.encode(password), salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, encodeBase64Url(salt), encodeBase64Url(hash)].join('$');
}

/**
 * A stored hash no password matches (its "hash" is random bytes) that costs a whole scrypt run to check: what
 * an unknown login is checked against, so that response times do not reveal which logins exist.
 */
export function decoyPasswordHash(): string {
  const random = (n: number) => encodeBase64Url(crypto.getRandomValues(new Uint8Array(n)));
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, random(16), random(SCRYPT.dkLen)].join('$');
}

/**
 * Password checks of this process, one at a time. In a browser scrypt is pure JS on the event loop, yielding every
 * 10 ms: two runs at once finish no sooner than one after the other, and every other request waits for a slice of
 * each; one at a time, a request waits for one slice at most. In Node it runs on libuv's thread pool, whose four
 * threads DNS lookups and file reads share: one at a time, a flood of guessed logins takes one core and one
 * thread, however many there are. (Exported so that the bench can lift the bound and compare.)
 */
export const passwordChecks = new Semaphore(1);

/**
 * Checks a password against {@link hashPassword}'s output, in constant time. A malformed hash matches nothing.
 * The scrypt run yields to the event loop now and then, and waits for its turn in {@link passwordChecks}, so
 * that logins, even a flood of them, do not stall other requests.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  // Costs come from the data file: refuse anything a corrupted or hostile row could use to stall the server.
  if (!(params.N > 1 && params.N <= 2 ** 20 && params.r >= 1 && params.r <= 32 && params.p >= 1 && params.p <= 16)) {
    return false;
  }
  try {
    const expected = decodeBase64Url(hash);
    const saltBytes = decodeBase64Url(salt);
    if (!expected || !saltBytes) return false;
    const actual = await passwordChecks.run(() =>
      scryptAsync(encoder.encode(password), saltBytes, { ...params, dkLen: expected.length }),
    );
    return timingSafeEqual(actual, expected);
  } catch {
    // Costs scrypt refuses (N not a power of two).
    return false;
  }
}

/** Compares two secrets without leaking, through timing, where they first differ. */
export function timingSafeEqual(a: Uint8Array | string, b: Uint8Array | string): boolean {
  const x = typeof a === 'string' ? encoder.encode(a) : a;
  const y = typeof b === 'string' ? encoder.encode(b) : b;
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i % x.length] ?? 0) ^ (y[i % y.length] ?? 0);
  return diff === 0;
}
