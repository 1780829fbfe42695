/**
 * RFC 7636 §4.1 and §4.2: a code verifier, and an S256 code challenge, is 43 to 128 unreserved characters. The
 * SDK checks the verifiers it is given; the reference server checks what clients send.
 */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** True when `value` is a well-formed PKCE code verifier or S256 code challenge. */
export function isPkceValue(value: string): boolean {
  return PKCE_VALUE.test(value);
}
