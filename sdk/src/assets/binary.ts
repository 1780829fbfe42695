/** Reading binary file headers: fixed-width integers and ASCII tags at an offset (0 past the end). */

export const u8 = (b: Uint8Array, at: number): number => b[at] ?? 0;
export const u16be = (b: Uint8Array, at: number): number => (u8(b, at) << 8) | u8(b, at + 1);
export const u16le = (b: Uint8Array, at: number): number => u8(b, at) | (u8(b, at + 1) << 8);
export const u24le = (b: Uint8Array, at: number): number => u16le(b, at) | (u8(b, at + 2) << 16);
export const u32be = (b: Uint8Array, at: number): number => ((u16be(b, at) << 16) | u16be(b, at + 2)) >>> 0;
export const u32le = (b: Uint8Array, at: number): number => ((u16le(b, at + 2) << 16) | u16le(b, at)) >>> 0;

/** The `n` bytes at `at` as Latin-1 text, e.g. a chunk type or a table tag. */
export function tag(b: Uint8Array, at: number, n = 4): string {
  return String.fromCharCode(...b.subarray(at, at + n));
}

/** `tag` for a message: as it is when printable ASCII, in hex otherwise. */
export function shownTag(b: Uint8Array, at: number, n = 4): string {
  const text = tag(b, at, n);
  if (/^[\x20-\x7e]+$/.test(text)) return `"${text}"`;
  return `0x${Array.from(b.subarray(at, at + n), (x) => x.toString(16).padStart(2, '0')).join('')}`;
}

/** Whether `bytes` hold `signature` at `at`. */
export function startsWith(bytes: Uint8Array, signature: readonly number[] | string, at = 0): boolean {
  const expected = typeof signature === 'string' ? Array.from(signature, (c) => c.charCodeAt(0)) : signature;
  if (bytes.length < at + expected.length) return false;
  return expected.every((byte, i) => bytes[at + i] === byte);
}
