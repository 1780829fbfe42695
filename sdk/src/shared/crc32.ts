/** CRC-32 (ISO 3309, the one of PNG, zlib and gzip), table-driven. */

const TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/**
 * The CRC-32 of `bytes` (or of `bytes[start, end)`). An indexed loop: it runs cold in the seed, where the
 * iterator protocol is what unoptimised code pays for most, and over megabytes when uploads are checked.
 */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
