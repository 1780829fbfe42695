import { encodeBase64Url } from '@storefront-platform/sdk/internal';
import { sha256 } from '../shared/sha256.js';
import { timingSafeEqual } from './secrets.js';

/** RFC 7636 §4.6, S256: `BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge`. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return timingSafeEqual(encodeBase64Url(sha256(new TextEncoder().encode(verifier))), challenge);
}
