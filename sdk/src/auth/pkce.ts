/** Proof Key for Code Exchange (RFC 7636) with the S256 method, on Web Crypto. */
import { base64Url } from './base64url.js';

/** A random code verifier: 32 random bytes, base64url, 43 characters (RFC 7636 §4.1). */
export function pkceVerifier(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The S256 code challenge of `verifier`: base64url(SHA-256(ASCII(verifier))) (RFC 7636 §4.2). */
export async function pkceChallenge(verifier: string): Promise<string> {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) {
    throw new TypeError('pkceChallenge: a code verifier is 43 to 128 characters of [A-Za-z0-9-._~]');
  }
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}
