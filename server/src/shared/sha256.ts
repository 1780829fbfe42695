/**
 * SHA-256 of bytes, synchronous on every platform the core runs on. In Node it is the native hash, reached
 * through `process.getBuiltinModule` (Node ≥ 20.16) so that this module imports no `node:` module and the MSW
 * handlers still load in browsers, where the pure-JS one serves. Native matters most where code is still cold:
 * a mock's first requests in a test file hashed a token twice at ~0.4 ms each in pure JS, ~5 µs natively.
 */
import { sha256 as pureSha256 } from '@noble/hashes/sha2.js';

interface NativeCrypto {
  createHash(algorithm: 'sha256'): { update(data: Uint8Array): { digest(): Uint8Array } };
}

const native = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'node:crypto',
) as NativeCrypto | undefined;

/** The 32-byte SHA-256 digest of `data`. */
export const sha256: (data: Uint8Array) => Uint8Array = native
  ? (data) => native.createHash('sha256').update(data).digest()
  : pureSha256;
