import crypto from 'node:crypto';
import { md5 as pureMd5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it, vi } from 'vitest';
import { md5Hex } from '../src/shared/md5.js';

describe('md5Hex', () => {
  it("is Node's native hash in Node, node:crypto's createHash (the pure-JS one is for browsers)", () => {
    // The module process.getBuiltinModule gives is the one imported here: a spy on it sees the native calls.
    const createHash = vi.spyOn(crypto, 'createHash');
    try {
      expect(md5Hex(new TextEncoder().encode('abc'))).toBe('900150983cd24fb0d6963f7d28e17f72');
      expect(createHash).toHaveBeenCalledExactlyOnceWith('md5');
    } finally {
      createHash.mockRestore();
    }
  });

  it('gives the RFC 1321 digests, and the pure-JS one (browsers) agrees on every length around a block', () => {
    expect(md5Hex(new Uint8Array(0))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5Hex(new TextEncoder().encode('message digest'))).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    for (let n = 0; n < 200; n++) {
      const data = crypto.getRandomValues(new Uint8Array(n));
      expect(md5Hex(data)).toBe(bytesToHex(pureMd5(data)));
    }
  });
});
