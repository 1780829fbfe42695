import crypto from 'node:crypto';
import { scrypt as pureScrypt } from '@noble/hashes/scrypt.js';
import { describe, expect, it, vi } from 'vitest';
import { hashPassword, verifyPassword } from '../src/oauth/secrets.js';
import { scrypt, scryptAsync } from '../src/shared/scrypt.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytes = (text: string) => new TextEncoder().encode(text);

/** RFC 7914 §12. */
const VECTORS = [
  {
    password: '',
    salt: '',
    params: { N: 16, r: 1, p: 1, dkLen: 64 },
    key: '77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906',
  },
  {
    password: 'password',
    salt: 'NaCl',
    params: { N: 1024, r: 8, p: 16, dkLen: 64 },
    key: 'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640',
  },
];

describe('scrypt', () => {
  it("is Node's native scrypt in Node, on its thread pool (the pure-JS one is for browsers)", async () => {
    // The module process.getBuiltinModule gives is the one imported here: a spy on it sees the native calls.
    const native = vi.spyOn(crypto, 'scrypt');
    try {
      await scryptAsync(bytes('pw'), bytes('salt'), { N: 16, r: 1, p: 1, dkLen: 32 });
      expect(native).toHaveBeenCalledOnce();
    } finally {
      native.mockRestore();
    }
  });

  it('derives the keys of RFC 7914, synchronously and not, as the pure-JS one does', async () => {
    for (const { password, salt, params, key } of VECTORS) {
      expect(hex(scrypt(bytes(password), bytes(salt), params))).toBe(key);
      expect(hex(await scryptAsync(bytes(password), bytes(salt), params))).toBe(key);
      expect(hex(pureScrypt(bytes(password), bytes(salt), params))).toBe(key);
    }
  });

  it('refuses the costs the pure-JS one refuses: N not a power of two, or more than 1 GiB of memory', async () => {
    await expect(scryptAsync(bytes('pw'), bytes('salt'), { N: 1000, r: 8, p: 1, dkLen: 32 })).rejects.toThrow();
    await expect(scryptAsync(bytes('pw'), bytes('salt'), { N: 2 ** 20, r: 16, p: 1, dkLen: 32 })).rejects.toThrow();
    expect(() => pureScrypt(bytes('pw'), bytes('salt'), { N: 2 ** 20, r: 16, p: 1, dkLen: 32 })).toThrow();
  });

  it('keeps password hashes portable: one made in a browser (pure JS) checks in Node, and the other way', async () => {
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const made = hashPassword('secret', salt);
    const [, n, r, p, saltText] = made.split('$');
    const pure = pureScrypt(bytes('secret'), salt, { N: Number(n), r: Number(r), p: Number(p), dkLen: 32 });
    expect(made).toBe(['scrypt', n, r, p, saltText, Buffer.from(pure).toString('base64url')].join('$'));
    expect(await verifyPassword('secret', made)).toBe(true);
    expect(await verifyPassword('Secret', made)).toBe(false);
  });
});
