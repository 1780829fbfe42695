/**
 * MD5 of bytes as lowercase hex (an asset's digest, as the API shows it), synchronous on every platform the core
 * runs on. In Node it is the native hash, reached through `process.getBuiltinModule` (Node ≥ 20.16) so that this
 * module imports no `node:` module and the MSW handlers still load in browsers, where the pure-JS one serves. Native
 * matters at the server's start, which checks every stored asset against its digest: a fifth of the start's own work
 * in pure JS on the demo theme, a few dozen microseconds natively.
 */
import { md5 as pureMd5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';

interface NativeCrypto {
  createHash(algorithm: 'md5'): { update(data: Uint8Array): { digest(encoding: 'hex'): string } };
}

const native = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'node:crypto',
) as NativeCrypto | undefined;

/** The MD5 digest of `data`, 32 lowercase hex digits. */
export const md5Hex: (data: Uint8Array) => string = native
  ? (data) => native.createHash('md5').update(data).digest('hex')
  : (data) => bytesToHex(pureMd5(data));
