/**
 * The JWT bearer assertion, signed by Web Crypto: an HS256 compact JWT whose signature Node's own HMAC checks with
 * the UTF-8 bytes of the client secret, and whose claims are those of spec §5.1.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jwtAssertion } from '../../src/auth/jwt-assertion.js';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('jwtAssertion', () => {
  it.each(['s3cret', 'a secret with é and 🔑', 'x'.repeat(200)])(
    'signs with the secret %#, checked by node:crypto',
    async (secret) => {
      const jwt = await jwtAssertion(
        { issuer: 'app é', audience: 'http://auth.test/oauth/token', subject: 'the token', now: 1_700_000_000_999 },
        secret,
      );
      const [header, payload, signature] = jwt.split('.');
      expect(decode(header!)).toEqual({ alg: 'HS256', typ: 'JWT' });
      expect(decode(payload!)).toEqual({
        iss: 'app é',
        aud: 'http://auth.test/oauth/token',
        sub: 'the token',
        iat: 1_700_000_000,
        exp: 1_700_000_060,
      });
      expect(signature).toBe(createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url'));
    },
  );
});
