/**
 * Real image files for the demo themes, encoded here so that the seed needs no binary fixtures and no
 * `node:zlib` (it runs in browsers). PNGs use stored (uncompressed) deflate blocks: valid, if not small.
 */

import { crc32 } from '@storefront-platform/sdk/internal';
import { concatBytes } from '../shared/concat-bytes.js';

/** An RGB colour, each channel 0–255. */
export type Rgb = readonly [number, number, number];

// Indexed loops and no destructuring below: the seed runs once per process, mostly before the JIT has
// optimised anything, and the iterator protocol is what cold code pays for most (measured: 3× the time).
function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i++) {
    a = (a + bytes[i]!) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function u32(n: number): Uint8Array {
  return Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/** A zlib stream of stored deflate blocks (RFC 1950/1951). */
function zlibStored(data: Uint8Array): Uint8Array {
  const blocks: Uint8Array[] = [Uint8Array.of(0x78, 0x01)];
  for (let at = 0; at < data.length || at === 0; at += 0xffff) {
    const chunk = data.subarray(at, at + 0xffff);
    const final = at + 0xffff >= data.length ? 1 : 0;
    const len = chunk.length;
    blocks.push(Uint8Array.of(final, len & 0xff, len >>> 8, ~len & 0xff, (~len >>> 8) & 0xff), chunk);
    if (final) break;
  }
  blocks.push(u32(adler32(data)));
  return concatBytes(blocks);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concatBytes([Uint8Array.from(type, (c) => c.charCodeAt(0)), data]);
  return concatBytes([u32(data.length), typed, u32(crc32(typed))]);
}

/** A truecolour PNG of `width`×`height` whose pixels `paint(x, y)` gives. */
export function png(width: number, height: number, paint: (x: number, y: number) => Rgb): Uint8Array {
  const raw = new Uint8Array(height * (width * 3 + 1));
  let at = 0;
  for (let y = 0; y < height; y++) {
    raw[at++] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const rgb = paint(x, y);
      raw[at++] = rgb[0];
      raw[at++] = rgb[1];
      raw[at++] = rgb[2];
    }
  }
  const header = concatBytes([u32(width), u32(height), Uint8Array.of(8, 2, 0, 0, 0)]);
  return concatBytes([
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    chunk('IHDR', header),
    chunk('IDAT', zlibStored(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/**
 * A GIF89a of `width`×`height` in up to four colours; `paint(x, y)` gives the palette index. The LZW stream
 * sends a clear code every two pixels so that the code width stays at 3 bits: simple, and valid.
 */
export function gif(width: number, height: number, palette: readonly Rgb[], paint: (x: number, y: number) => number) {
  const colours = [...palette, [0, 0, 0] as Rgb, [0, 0, 0] as Rgb, [0, 0, 0] as Rgb].slice(0, 4);
  const CLEAR = 4;
  const END = 5;
  const codes: number[] = [];
  for (let i = 0; i < width * height; i++) {
    if (i % 2 === 0) codes.push(CLEAR);
    codes.push(paint(i % width, Math.floor(i / width)) & 3);
  }
  codes.push(END);
  const packed: number[] = [];
  let bits = 0;
  let count = 0;
  for (const code of codes) {
    bits |= code << count;
    count += 3;
    while (count >= 8) {
      packed.push(bits & 0xff);
      bits >>>= 8;
      count -= 8;
    }
  }
  if (count > 0) packed.push(bits & 0xff);
  const subBlocks: number[] = [];
  for (let at = 0; at < packed.length; at += 255) {
    const block = packed.slice(at, at + 255);
    subBlocks.push(block.length, ...block);
  }
  const le = (n: number) => [n & 0xff, n >>> 8];
  return Uint8Array.from([
    ...Array.from('GIF89a', (c) => c.charCodeAt(0)),
    ...le(width),
    ...le(height),
    0xf1, // global colour table of 2^(1+1) entries
    0,
    0,
    ...colours.flat(),
    0x2c, // image descriptor
    ...le(0),
    ...le(0),
    ...le(width),
    ...le(height),
    0,
    2, // LZW minimum code size
    ...subBlocks,
    0,
    0x3b,
  ]);
}
