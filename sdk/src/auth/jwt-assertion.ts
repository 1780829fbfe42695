import { encodeBase64Url } from '../shared/base64.js';

/** What a JWT bearer assertion says (spec §5.1). */
export interface JwtAssertionClaims {
  /** The client id. */
  issuer: string;
  /** Any string for this server; the token URL by convention (RFC 7523 §3). */
  audience: string;
  /** The access token to exchange. */
  subject: string;
  /** Epoch ms now. */
  now: number;
  /** How long the assertion is valid, in seconds; a few seconds are enough for one exchange. Default 60. */
  lifetime?: number;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const part = (value: object) => encodeBase64Url(utf8(JSON.stringify(value)));

/**
 * The JWT of the JWT bearer grant (RFC 7519, compact form), HS256-signed with the UTF-8 bytes of the client secret
 * by Web Crypto, which every runtime the SDK supports has.
 */
export async function jwtAssertion(claims: JwtAssertionClaims, clientSecret: string): Promise<string> {
  const issuedAt = Math.floor(claims.now / 1000);
  const { issuer: iss, audience: aud, subject: sub } = claims;
  const content = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iss, aud, sub, iat: issuedAt, exp: issuedAt + (claims.lifetime ?? 60) })}`;
  const key = await crypto.subtle.importKey('raw', utf8(clientSecret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return `${content}.${encodeBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8(content))))}`;
}
