/** Proof Key for Code Exchange (RFC 7636) with the S256 method, on Web Crypto. */
import { encodeBase64Url } from '../shared/base64.js';
import { isPkceValue } from '../shared/pkce.js';

/** A random code verifier: 32 random bytes, base64url, 43 characters (RFC 7636 §4.1). */
export function pkceVerifier(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The S256 code challenge of `verifier`: base64url(SHA-256(ASCII(verifier))) (RFC 7636 §4.2). */
export async function pkceChallenge(verifier: string): Promise<string> {
  if (!isPkceValue(verifier)) {
    throw new TypeError('pkceChallenge: a code verifier is 43 to 128 characters of [A-Za-z0-9-._~]');
  }
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return encodeBase64Url(new Uint8Array(digest));
}
