import crypto from 'node:crypto';
import { sha256 as pureSha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it, vi } from 'vitest';
import { sha256 } from '../src/shared/sha256.js';

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

describe('sha256', () => {
  it("is Node's native hash in Node, node:crypto's createHash (the pure-JS one is for browsers)", () => {
    // The module process.getBuiltinModule gives is the one imported here: a spy on it sees the native calls.
    const createHash = vi.spyOn(crypto, 'createHash');
    try {
      expect(hex(sha256(new TextEncoder().encode('abc')))).toMatch(/^ba7816bf/);
      expect(createHash).toHaveBeenCalledExactlyOnceWith('sha256');
    } finally {
      createHash.mockRestore();
    }
  });

  it('gives the FIPS 180-4 digests, and the pure-JS one (browsers) agrees on every length around a block', () => {
    expect(hex(sha256(new TextEncoder().encode('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (let n = 0; n < 200; n++) {
      const data = crypto.getRandomValues(new Uint8Array(n));
      expect(hex(sha256(data))).toBe(hex(pureSha256(data)));
    }
  });
});
