import sign from 'jwt-encode';

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

/** The JWT of the JWT bearer grant, HS256-signed with the client secret. */
export function jwtAssertion(claims: JwtAssertionClaims, clientSecret: string): string {
  const issuedAt = Math.floor(claims.now / 1000);
  return sign(
    {
      iss: claims.issuer,
      aud: claims.audience,
      sub: claims.subject,
      iat: issuedAt,
      exp: issuedAt + (claims.lifetime ?? 60),
    },
    clientSecret,
  );
}
