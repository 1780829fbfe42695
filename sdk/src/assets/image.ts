/**
 * What an image of each raster type must hold to be taken for one: not only a signature (eight bytes any file
 * can start with) but the structure a decoder reads first, with sane values: PNG's chunks and their CRCs, GIF's
 * screen descriptor and blocks, JPEG's segments up to the frame header, WebP's RIFF chunk and bitstream header,
 * ICO's directory. Pixels are left to the browser: the point is that a file served as `image/png` is a PNG, and
 * a renamed, truncated or forged one is refused at upload. Each check returns what is wrong, or `undefined`.
 */
import { crc32 } from '../shared/crc32.js';
import { shownTag, startsWith, tag, u8, u16be, u16le, u24le, u32be, u32le } from './binary.js';

/** Wider or taller images are refused: no theme needs them, and they decode into hundreds of megabytes. */
const MAX_IMAGE_SIDE = 16_384;

function size(width: number, height: number): string | undefined {
  if (width === 0 || height === 0) return `has no pixels (${width}×${height})`;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    return `is ${width}×${height} pixels, more than ${MAX_IMAGE_SIDE} on a side`;
  }
  return undefined;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bit depths each colour type allows (PNG §11.2.2). */
const PNG_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/** PNG (ISO 15948): the signature, an IHDR first, every chunk whole with its CRC, an IDAT, and IEND. */
export function pngProblem(b: Uint8Array): string | undefined {
  if (!startsWith(b, PNG_SIGNATURE)) return 'no PNG signature';
  let sawData = false;
  for (let at = 8; ; ) {
    if (at + 12 > b.length) return 'it ends before its IEND chunk';
    const length = u32be(b, at);
    const type = tag(b, at + 4);
    if (!/^[A-Za-z]{4}$/.test(type)) return `a chunk has the invalid type ${shownTag(b, at + 4)}`;
    const end = at + 8 + length;
    if (end + 4 > b.length) return `its ${type} chunk runs past the end of the file`;
    if (crc32(b, at + 4, end) !== u32be(b, end)) return `the CRC of its ${type} chunk does not match`;
    if (at === 8) {
      if (type !== 'IHDR' || length !== 13) return 'its first chunk is not a 13-byte IHDR';
      const problem = ihdrProblem(b, at + 8);
      if (problem) return problem;
    } else if (type === 'IHDR') return 'it has a second IHDR chunk';
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') return sawData ? undefined : 'it has no IDAT chunk';
    at = end + 4;
  }
}

function ihdrProblem(b: Uint8Array, at: number): string | undefined {
  const problem = size(u32be(b, at), u32be(b, at + 4));
  if (problem) return problem;
  const depth = u8(b, at + 8);
  const colour = u8(b, at + 9);
  if (!PNG_DEPTHS[colour]?.includes(depth)) return `its IHDR has colour type ${colour} with bit depth ${depth}`;
  if (u8(b, at + 10) !== 0 || u8(b, at + 11) !== 0 || u8(b, at + 12) > 1) {
    return 'its IHDR names an unknown compression, filter or interlace method';
  }
  return undefined;
}

/** The offset past the data sub-blocks at `at` (GIF89a §15), or `undefined` when they run past the end. */
function skipSubBlocks(b: Uint8Array, at: number): number | undefined {
  let i = at;
  while (i < b.length) {
    const n = b[i]!;
    i += 1 + n;
    if (n === 0) return i;
  }
  return undefined;
}

/** The colour table a GIF packed field announces, in bytes. */
const colourTable = (packed: number): number => (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);

/** GIF87a/89a: the header, a logical screen with pixels, then blocks up to the trailer, at least one image. */
export function gifProblem(b: Uint8Array): string | undefined {
  if (!startsWith(b, 'GIF87a') && !startsWith(b, 'GIF89a')) return 'no GIF87a or GIF89a header';
  if (b.length < 13) return 'it ends inside its logical screen descriptor';
  const problem = size(u16le(b, 6), u16le(b, 8));
  if (problem) return problem;
  let at: number | undefined = 13 + colourTable(u8(b, 10));
  let images = 0;
  while (at !== undefined && at < b.length) {
    const block = b[at]!;
    if (block === 0x3b) break;
    if (block === 0x21) at = skipSubBlocks(b, at + 2);
    else if (block === 0x2c) {
      at += 10 + colourTable(u8(b, at + 9));
      // The LZW minimum code size, then the image data.
      at = at < b.length ? skipSubBlocks(b, at + 1) : undefined;
      if (at !== undefined) images++;
    } else return `it has an unknown block 0x${block.toString(16).padStart(2, '0')}`;
  }
  if (at === undefined || at > b.length) return 'it ends inside a block';
  return images > 0 ? undefined : 'it holds no image';
}

/** Start-of-frame markers: SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC). */
const isFrameMarker = (m: number): boolean => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** JPEG (ITU T.81): SOI, then whole marker segments up to a frame header with pixels and 1 to 4 components. */
export function jpegProblem(b: Uint8Array): string | undefined {
  if (!startsWith(b, [0xff, 0xd8])) return 'no JPEG start-of-image marker';
  let at = 2;
  while (at < b.length) {
    if (b[at] !== 0xff) return 'a segment does not start with a marker';
    while (b[at] === 0xff) at++; // fill bytes
    if (at >= b.length) break;
    const marker = u8(b, at++);
    // Standalone markers: restart intervals and TEM.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda || marker === 0x00) {
      return 'it has no frame header before its image data';
    }
    const length = u16be(b, at);
    if (length < 2 || at + length > b.length) return 'a segment runs past the end of the file';
    if (isFrameMarker(marker)) {
      const components = u8(b, at + 7);
      if (length < 8 || components < 1 || components > 4 || length !== 8 + 3 * components) {
        return 'its frame header is malformed';
      }
      return size(u16be(b, at + 5), u16be(b, at + 3));
    }
    at += length;
  }
  return 'it ends before its frame header';
}

/** WebP: a RIFF container the file holds whole, then a VP8, VP8L or VP8X chunk with its dimensions. */
export function webpProblem(b: Uint8Array): string | undefined {
  if (!startsWith(b, 'RIFF') || !startsWith(b, 'WEBP', 8)) return 'no RIFF WEBP header';
  const riff = u32le(b, 4);
  if (riff < 12 || riff + 8 > b.length) return 'its RIFF size does not fit the file';
  const chunk = tag(b, 12);
  const at = 20;
  if (at + u32le(b, 16) > b.length) return `its ${shownTag(b, 12)} chunk runs past the end of the file`;
  switch (chunk) {
    case 'VP8 ':
      if (!startsWith(b, [0x9d, 0x01, 0x2a], at + 3)) return 'no VP8 start code';
      return size(u16le(b, at + 6) & 0x3fff, u16le(b, at + 8) & 0x3fff);
    case 'VP8L': {
      if (b[at] !== 0x2f) return 'no VP8L signature';
      const bits = u32le(b, at + 1);
      if (bits >>> 29 !== 0) return 'an unknown VP8L version';
      return size((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    case 'VP8X':
      return size(u24le(b, at + 4) + 1, u24le(b, at + 7) + 1);
    default:
      return `its first chunk ${shownTag(b, 12)} is not VP8, VP8L or VP8X`;
  }
}

/** ICO: the icon header, a directory of at least one image, each inside the file and PNG or BMP data. */
export function icoProblem(b: Uint8Array): string | undefined {
  if (u16le(b, 0) !== 0 || u16le(b, 2) !== 1 || b.length < 6) return 'no icon header';
  const count = u16le(b, 4);
  if (count === 0) return 'its directory lists no image';
  const directoryEnd = 6 + 16 * count;
  if (directoryEnd > b.length) return 'its directory runs past the end of the file';
  for (let i = 0; i < count; i++) {
    const entry = 6 + 16 * i;
    const length = u32le(b, entry + 8);
    const offset = u32le(b, entry + 12);
    if (length === 0 || offset < directoryEnd || offset + length > b.length) {
      return `its image ${i + 1} lies outside the file`;
    }
    const png = startsWith(b, PNG_SIGNATURE, offset);
    // A BMP without its file header: BITMAPINFOHEADER (40 bytes) or a later version (108, 124).
    const bmp = [40, 108, 124].includes(u32le(b, offset));
    if (!png && !bmp) return `its image ${i + 1} is neither PNG nor BMP data`;
  }
  return undefined;
}
