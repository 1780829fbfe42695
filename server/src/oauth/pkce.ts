import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToBase64Url } from './base64url.js';
import { timingSafeEqual } from './secrets.js';

/** RFC 7636 §4.1/§4.2: 43 to 128 unreserved characters, for both the verifier and an S256 challenge. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isPkceValue(value: string): boolean {
  return PKCE_VALUE.test(value);
}

/** RFC 7636 §4.6, S256: `BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge`. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return timingSafeEqual(bytesToBase64Url(sha256(new TextEncoder().encode(verifier))), challenge);
}
