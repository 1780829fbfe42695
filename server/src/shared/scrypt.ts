/**
 * scrypt (RFC 7914) on every platform the core runs on. In Node it is the native one, reached through
 * `process.getBuiltinModule` (Node ≥ 20.16) so that this module imports no `node:` module and the MSW handlers still
 * load in browsers, where @noble/hashes' pure-JS one serves. Native, a check costs half the CPU and runs on libuv's
 * thread pool, leaving the event loop to the other requests; the pure-JS one yields to it every 10 ms.
 */
import { scrypt as pureScrypt, scryptAsync as pureScryptAsync } from '@noble/hashes/scrypt.js';

/** scrypt's costs and the length of the key it derives. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  dkLen: number;
}

interface NativeOptions {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

interface NativeCrypto {
  scryptSync(password: Uint8Array, salt: Uint8Array, keylen: number, options: NativeOptions): Uint8Array;
  scrypt(
    password: Uint8Array,
    salt: Uint8Array,
    keylen: number,
    options: NativeOptions,
    callback: (error: Error | null, key: Uint8Array) => void,
  ): void;
}

const native = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'node:crypto',
) as NativeCrypto | undefined;

/** The memory both refuse to go past (the pure-JS one's own bound, 1 GiB): costs from a hostile row fail alike. */
const MAXMEM = 1024 ** 3 + 1024;

const nativeOptions = ({ N, r, p }: ScryptParams): NativeOptions => ({ N, r, p, maxmem: MAXMEM });

/** The key scrypt derives, synchronously: for seeding and start-up (it holds the thread for the whole run). */
export const scrypt: (password: Uint8Array, salt: Uint8Array, params: ScryptParams) => Uint8Array = native
  ? (password, salt, params) => new Uint8Array(native.scryptSync(password, salt, params.dkLen, nativeOptions(params)))
  : (password, salt, params) => pureScrypt(password, salt, params);

/** The key scrypt derives, without holding the event loop. Rejects costs scrypt refuses (N not a power of two). */
export const scryptAsync: (password: Uint8Array, salt: Uint8Array, params: ScryptParams) => Promise<Uint8Array> = native
  ? (password, salt, params) =>
      new Promise((resolve, reject) =>
        native.scrypt(password, salt, params.dkLen, nativeOptions(params), (error, key) =>
          error ? reject(error) : resolve(new Uint8Array(key)),
        ),
      )
  : (password, salt, params) => pureScryptAsync(password, salt, params);
