/**
 * Small files of every asset type, well-formed down to the structure the server checks (headers, chunk and
 * table directories), for upload tests. PNG and GIF come from the seed's encoders, which draw real images.
 */
import { gif, png } from '../../src/seed/images.js';

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));
const u16be = (n: number) => [n >>> 8, n & 0xff];
const u16le = (n: number) => [n & 0xff, n >>> 8];
const u32be = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u32le = (n: number) => [...u16le(n & 0xffff), ...u16le(n >>> 16)];
/** A copy typed on a plain ArrayBuffer, as `Blob` parts must be. */
const bytes = (...parts: number[][]) => new Uint8Array(parts.flat());

export const samplePng = (width = 4, height = 3) => new Uint8Array(png(width, height, (x, y) => [x * 60, y * 80, 90]));

export const sampleGif = (width = 4, height = 4) =>
  new Uint8Array(
    gif(
      width,
      height,
      [
        [255, 255, 255],
        [0, 0, 0],
      ],
      (x, y) => (x + y) % 2,
    ),
  );

/** SOI, a JFIF APP0, a baseline frame header (one component), a scan header, a byte of data, EOI. */
export const sampleJpeg = (width = 8, height = 8) =>
  bytes(
    [0xff, 0xd8],
    [0xff, 0xe0, ...u16be(16), ...ascii('JFIF\0'), 1, 1, 0, ...u16be(1), ...u16be(1), 0, 0],
    [0xff, 0xc0, ...u16be(11), 8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0],
    [0xff, 0xda, ...u16be(8), 1, 1, 0, 0, 63, 0, 0x00],
    [0xff, 0xd9],
  );

/** A lossless WebP: RIFF, WEBP, a VP8L chunk with its signature and dimensions. */
export function sampleWebp(width = 4, height = 4): Uint8Array {
  const vp8l = [0x2f, ...u32le((width - 1) | ((height - 1) << 14)), 0, 0, 0];
  const chunk = [...ascii('VP8L'), ...u32le(vp8l.length), ...vp8l];
  return bytes(ascii('RIFF'), u32le(4 + chunk.length), ascii('WEBP'), chunk);
}

/** An icon whose one image is a PNG. */
export function sampleIco(): Uint8Array {
  const image = samplePng(16, 16);
  return bytes(
    [0, 0, 1, 0, 1, 0],
    [16, 16, 0, 0, ...u16le(1), ...u16le(32), ...u32le(image.length), ...u32le(22)],
    [...image],
  );
}

/** An sfnt with one `head` table, under `version` (`[0, 1, 0, 0]`, `true` or `OTTO`). */
export function sampleSfnt(version: number[]): Uint8Array {
  const table = new Array<number>(54).fill(0);
  return bytes(
    version,
    u16be(1),
    u16be(16),
    u16be(0),
    u16be(0),
    [...ascii('head'), ...u32be(0), ...u32be(28), ...u32be(54)],
    table,
  );
}

/** A WOFF with one table whose data follows the directory. */
export function sampleWoff(): Uint8Array {
  const data = new Array<number>(8).fill(0);
  const total = 44 + 20 + data.length;
  const header = [...ascii('wOFF'), 0, 1, 0, 0, ...u32be(total), ...u16be(1), ...u16be(0), ...u32be(62)];
  const rest = new Array<number>(44 - header.length).fill(0);
  const entry = [...ascii('head'), ...u32be(64), ...u32be(8), ...u32be(54), ...u32be(0)];
  return bytes(header, rest, entry, data);
}

/** A WOFF2 header with one table and its compressed data. */
export function sampleWoff2(): Uint8Array {
  const data = new Array<number>(16).fill(0);
  const total = 48 + data.length;
  const header = [
    ...ascii('wOF2'),
    0,
    1,
    0,
    0,
    ...u32be(total),
    ...u16be(1),
    ...u16be(0),
    ...u32be(100),
    ...u32be(data.length),
  ];
  return bytes(header, new Array<number>(48 - header.length).fill(0), data);
}

export const sampleSvg = () =>
  new TextEncoder().encode(
    '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>',
  );
