import { crc32 } from '@storefront-platform/sdk/internal';
import { describe, expect, it } from 'vitest';
import { assetDigest, checkAssetFile, MAX_ASSET_BYTES } from '../../src/api/themes/asset.js';
import { HttpError } from '../../src/http/http-error.js';
import { themeImages } from '../../src/seed/theme/index.js';
import {
  sampleGif,
  sampleIco,
  sampleJpeg,
  samplePng,
  sampleSfnt,
  sampleWebp,
  sampleWoff,
  sampleWoff2,
} from '../helpers/asset-samples.js';

/** The field errors of the 422 that `fn` throws. */
function fieldErrors(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof HttpError && error.status === 422) return error.fieldErrors;
    throw error;
  }
  throw new Error('expected a 422');
}

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)));

const PNG = samplePng();
const SAMPLES: Record<string, Uint8Array> = {
  'a.png': PNG,
  'a.jpg': sampleJpeg(),
  'a.jpeg': sampleJpeg(640, 480),
  'a.gif': sampleGif(),
  'a.webp': sampleWebp(),
  'a.svg': bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  'b.svg': bytes([0xef, 0xbb, 0xbf], '\n<?xml version="1.0"?>\n<svg/>'),
  'a.ico': sampleIco(),
  'a.woff': sampleWoff(),
  'a.woff2': sampleWoff2(),
  'a.ttf': sampleSfnt([0, 1, 0, 0]),
  'b.ttf': sampleSfnt(Array.from('true', (c) => c.charCodeAt(0))),
  'a.otf': sampleSfnt(Array.from('OTTO', (c) => c.charCodeAt(0))),
};

/** The PNG sample with other dimensions in its IHDR, and the chunk's CRC made right again. */
function pngSized(width: number, height: number): Uint8Array {
  const copy = PNG.slice();
  const view = new DataView(copy.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  view.setUint32(29, crc32(copy, 12, 29));
  return copy;
}

/** `bytes` with the byte at `at` changed. */
function flipped(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice();
  copy[at]! ^= 0xff;
  return copy;
}

describe('asset files', () => {
  it.each(Object.entries(SAMPLES))('accepts %s whose bytes match its extension', (name, data) => {
    const file = checkAssetFile(name, data, 'data');
    expect(file).toMatchObject({ file_name: name, file_size: data.byteLength, bytes: data });
  });

  it('derives the media type from the extension and the MD5 hex digest from the bytes', () => {
    expect(checkAssetFile('img/Logo.PNG', PNG, 'data')).toMatchObject({ content_type: 'image/png' });
    expect(checkAssetFile('x.svg', SAMPLES['a.svg']!, 'data')).toMatchObject({ content_type: 'image/svg+xml' });
    // RFC 1321 §A.5 test suite.
    expect(assetDigest(bytes('abc'))).toBe('900150983cd24fb0d6963f7d28e17f72');
    const ttf = SAMPLES['b.ttf']!;
    expect(checkAssetFile('a.ttf', ttf, 'data')).toMatchObject({ digest: assetDigest(ttf) });
  });

  it('refuses a PNG named .gif, on the content field', () => {
    expect(fieldErrors(() => checkAssetFile('a.gif', PNG, 'file'))).toEqual([
      { field: 'file', messages: ['is not a .gif file (image/gif): no GIF87a or GIF89a header'] },
    ]);
  });

  it.each([
    ['a.svg', bytes('<html><svg/></html>')],
    ['a.svg', bytes('<?xml version="1.0"?><html/>')],
    ['a.svg', bytes('<svg', [0xff, 0xfe])],
    ['a.webp', bytes('RIFF', [4, 0, 0, 0], 'WAVE')],
    ['a.otf', bytes('wOFF')],
    ['a.png', bytes([0x89, 0x50])],
  ])('refuses %s with other content', (name, data) => {
    expect(fieldErrors(() => checkAssetFile(name, data, 'data'))).toHaveProperty('0.field', 'data');
  });

  it.each([
    ['a.png', 'a bare PNG signature', PNG.subarray(0, 8), 'it ends before its IEND chunk'],
    ['a.png', 'a PNG cut short', PNG.subarray(0, PNG.length - 12), 'it ends before its IEND chunk'],
    ['a.png', 'a PNG whose IHDR was changed', flipped(PNG, 18), 'the CRC of its IHDR chunk does not match'],
    ['a.png', 'a PNG with a damaged IDAT', flipped(PNG, 45), 'the CRC of its IDAT chunk does not match'],
    ['a.png', 'a PNG without pixels', pngSized(0, 3), 'has no pixels (0×3)'],
    ['a.png', 'a PNG 20 000 pixels wide', pngSized(20_000, 3), 'more than 16384 on a side'],
    [
      'a.png',
      'a chunk longer than the file',
      bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0x7f, 0xff, 0xff, 0xff], 'IHDR', [1, 2, 3, 4]),
      'runs past the end',
    ],
    ['a.gif', 'a bare GIF header', bytes('GIF89a'), 'it ends inside its logical screen descriptor'],
    ['a.gif', 'a GIF screen and nothing else', bytes('GIF89a', [4, 0, 4, 0, 0, 0, 0]), 'it holds no image'],
    ['a.gif', 'a GIF without pixels', bytes('GIF89a', [0, 0, 4, 0, 0, 0, 0, 0x3b]), 'has no pixels (0×4)'],
    ['a.gif', 'a GIF cut inside its image', sampleGif().subarray(0, 30), 'it ends inside a block'],
    ['a.jpg', 'a bare start-of-image marker', bytes([0xff, 0xd8]), 'it ends before its frame header'],
    ['a.jpg', 'a JPEG cut inside a segment header', bytes([0xff, 0xd8, 0xff, 0xe0]), 'runs past the end'],
    [
      'a.jpg',
      'a JPEG segment longer than the file',
      bytes([0xff, 0xd8, 0xff, 0xe0, 0x40, 0x00, 1, 2]),
      'runs past the end',
    ],
    [
      'a.jpg',
      'scan data before the frame',
      bytes([0xff, 0xd8, 0xff, 0xda, 0, 2]),
      'no frame header before its image data',
    ],
    ['a.jpg', 'a JPEG frame without pixels', sampleJpeg(0, 8), 'has no pixels (0×8)'],
    [
      'a.webp',
      'a bare RIFF WEBP header',
      bytes('RIFF', [4, 0, 0, 0], 'WEBPVP8 '),
      'its RIFF size does not fit the file',
    ],
    [
      'a.webp',
      'a WebP whose first chunk is unknown',
      bytes('RIFF', [12, 0, 0, 0], 'WEBPXXXX', [0, 0, 0, 0]),
      'is not VP8, VP8L or VP8X',
    ],
    ['a.ico', 'a bare icon header', bytes([0, 0, 1, 0, 1, 0]), 'its directory runs past the end'],
    ['a.ico', 'an icon image outside the file', sampleIco().subarray(0, 40), 'lies outside the file'],
    ['a.woff', 'a bare WOFF signature', bytes('wOFF', [0, 1, 0, 0]), 'no WOFF header'],
    ['a.woff', 'a WOFF of another length', bytes([...sampleWoff(), 0]), 'the length in its header'],
    ['a.woff2', 'a WOFF2 cut short', sampleWoff2().subarray(0, 56), 'the length in its header'],
    ['a.ttf', 'a bare TrueType version', bytes([0, 1, 0, 0, 0, 12]), 'its table directory'],
    ['a.otf', 'a bare OTTO', bytes('OTTO', [0, 1]), 'its table directory runs past the end'],
  ])('refuses %s: %s', (name, _, data, reason) => {
    const [error] = fieldErrors(() => checkAssetFile(name, data, 'data'))!;
    expect(error).toEqual({ field: 'data', messages: [expect.stringContaining(reason)] });
  });

  it('accepts every image of the seed', () => {
    for (const accent of [
      [200, 40, 40],
      [0, 0, 0],
      [255, 255, 255],
    ] as const) {
      const shop = { name: 'Shop', description: '', locale: 'en-GB', currency_code: 'GBP', accent };
      for (const image of themeImages(shop)) {
        expect(checkAssetFile(image.file_name, image.draw(), 'data')).toMatchObject({
          content_type: image.content_type,
        });
      }
    }
  });

  it.each(['a.exe', 'a.html', '../a.png', 'a%2Fb.png', 'a\\b.png', 'a\0.png', '/a.png', ''])(
    'refuses the name %j',
    (name) => {
      expect(fieldErrors(() => checkAssetFile(name, PNG, 'data'))).toHaveProperty('0.field', 'file_name');
    },
  );

  it('refuses empty files and files over 1 MiB', () => {
    expect(fieldErrors(() => checkAssetFile('a.png', new Uint8Array(0), 'data'))).toHaveProperty('0.field', 'data');
    const big = new Uint8Array(MAX_ASSET_BYTES + 1);
    big.set(PNG);
    expect(() => checkAssetFile('a.png', big, 'data')).toThrow(expect.objectContaining({ status: 413 }));
    expect(checkAssetFile('a.png', big.subarray(0, MAX_ASSET_BYTES), 'data')).toHaveProperty(
      'file_size',
      MAX_ASSET_BYTES,
    );
  });
});
