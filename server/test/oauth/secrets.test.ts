import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url } from '../../../sdk/src/shared/base64.js';
import { hashPassword, hashSecret, randomSecret, timingSafeEqual, verifyPassword } from '../../src/oauth/secrets.js';

describe('secrets', () => {
  it('makes 32-byte base64url secrets by default', () => {
    const secret = randomSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(decodeBase64Url(secret)).toHaveLength(32);
    expect(randomSecret()).not.toBe(secret);
  });

  it('hashes a secret to SHA-256 base64url', () => {
    // RFC 6234 test vector "abc".
    expect(hashSecret('abc')).toBe(
      encodeBase64Url(
        Uint8Array.from(
          'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'.match(/../g)!.map((h) => parseInt(h, 16)),
        ),
      ),
    );
  });

  it('verifies passwords against their scrypt hash', () => {
    const stored = hashPassword('s3cret pässword');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(verifyPassword('s3cret pässword', stored)).toBe(true);
    expect(verifyPassword('s3cret password', stored)).toBe(false);
    expect(verifyPassword('', stored)).toBe(false);
  });

  it('matches nothing against a malformed or hostile hash, without throwing', () => {
    const [, , , , salt, hash] = hashPassword('pw').split('$');
    for (const stored of [
      'disabled',
      '',
      `scrypt$abc$8$1$${salt}$${hash}`,
      `scrypt$1000$8$1$${salt}$${hash}`,
      `scrypt$${2 ** 30}$8$1$${salt}$${hash}`,
      `scrypt$16384$8$1$***$${hash}`,
      `scrypt$16384$8$1$${salt}$`,
      `bcrypt$16384$8$1$${salt}$${hash}`,
    ]) {
      expect(verifyPassword('pw', stored)).toBe(false);
    }
  });

  it('compares in constant time, whatever the lengths', () => {
    expect(timingSafeEqual('abc', 'abc')).toBe(true);
    expect(timingSafeEqual('abc', 'abd')).toBe(false);
    expect(timingSafeEqual('abc', 'abcd')).toBe(false);
    expect(timingSafeEqual('', 'a')).toBe(false);
    expect(timingSafeEqual('', '')).toBe(true);
    expect(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
  });
});
