import { decodeBase64Url, encodeBase64Url } from '@storefront-platform/sdk/internal';
import { describe, expect, it } from 'vitest';
import {
  decoyPasswordHash,
  hashPassword,
  hashPasswordAsync,
  hashSecret,
  randomSecret,
  timingSafeEqual,
  verifyPassword,
} from '../../src/oauth/secrets.js';

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

  it('verifies passwords against their scrypt hash', async () => {
    const stored = hashPassword('s3cret pässword');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(await verifyPassword('s3cret pässword', stored)).toBe(true);
    expect(await verifyPassword('s3cret password', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('hashes asynchronously to the same form, which verifies', async () => {
    const stored = await hashPasswordAsync('team pässword');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(await verifyPassword('team pässword', stored)).toBe(true);
    expect(await verifyPassword('team password', stored)).toBe(false);
    expect(await hashPasswordAsync('team pässword')).not.toBe(stored);
  });

  it('verifies without holding the event loop for the whole scrypt run', async () => {
    const stored = hashPassword('pw');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      expect(await verifyPassword('pw', stored)).toBe(true);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  it('has a decoy hash of the same cost that no password matches', async () => {
    const decoy = decoyPasswordHash();
    expect(decoy.split('$').slice(0, 4)).toEqual(hashPassword('pw').split('$').slice(0, 4));
    expect(decoyPasswordHash()).not.toBe(decoy);
    expect(await verifyPassword('', decoy)).toBe(false);
  });

  it('matches nothing against a malformed or hostile hash, without throwing', async () => {
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
      expect(await verifyPassword('pw', stored)).toBe(false);
    }
  });

  it('compares in constant time, whatever the lengths: as many reads wherever the inputs first differ', () => {
    // Secrets as proxies that count the bytes read from them: an early exit at the first difference, or at a
    // length that differs, would read fewer for a guess that is wrong from its start than for one wrong at its end.
    const readsOf = (a: string, b: string) => {
      let reads = 0;
      const counted = (text: string) =>
        new Proxy(new TextEncoder().encode(text), {
          get(target, name) {
            // An empty input is read at NaN (i % 0): a read all the same.
            if (name !== 'length') reads++;
            return Reflect.get(target, name, target);
          },
        });
      timingSafeEqual(counted(a), counted(b));
      return reads;
    };
    const secret = 'secret-0123456789';
    const guesses = ['xecret-0123456789', 'secret-012345678x', secret, 'x', 'secret-0123456789-and-more', ''];
    const reads = guesses.map((guess) => readsOf(secret, guess));
    // Both inputs are read to the longer's length, whatever the guess holds.
    expect(reads).toEqual(guesses.map((guess) => 2 * Math.max(secret.length, guess.length)));
    expect(timingSafeEqual('abc', 'abc')).toBe(true);
    expect(timingSafeEqual('abc', 'abd')).toBe(false);
    expect(timingSafeEqual('abc', 'abcd')).toBe(false);
    expect(timingSafeEqual('', 'a')).toBe(false);
    expect(timingSafeEqual('', '')).toBe(true);
    expect(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
  });
});
