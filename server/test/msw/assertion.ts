/** A JWT bearer assertion (spec §5.1) exchanging `token`, signed with jose as a third-party client would. */
import { SignJWT } from 'jose';

export function assertion(clientId: string, clientSecret: string, token: string, nowMs: number): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(clientId)
    .setAudience('storefront')
    .setSubject(token)
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .sign(new TextEncoder().encode(clientSecret));
}
