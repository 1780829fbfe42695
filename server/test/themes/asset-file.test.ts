import { describe, expect, it } from 'vitest';
import { assetDigest, checkAssetFile, MAX_ASSET_BYTES } from '../../src/api/themes/asset-file.js';
import { HttpError } from '../../src/http/http-error.js';

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

const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR');
const SAMPLES: Record<string, Uint8Array> = {
  'a.png': PNG,
  'a.jpg': bytes([0xff, 0xd8, 0xff, 0xe0]),
  'a.jpeg': bytes([0xff, 0xd8, 0xff, 0xdb]),
  'a.gif': bytes('GIF89a', [1, 0, 1, 0]),
  'a.webp': bytes('RIFF', [4, 0, 0, 0], 'WEBPVP8 '),
  'a.svg': bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  'b.svg': bytes([0xef, 0xbb, 0xbf], '\n<?xml version="1.0"?>\n<svg/>'),
  'a.ico': bytes([0, 0, 1, 0, 1, 0]),
  'a.woff': bytes('wOFF', [0, 1, 0, 0]),
  'a.woff2': bytes('wOF2', [0, 1, 0, 0]),
  'a.ttf': bytes([0, 1, 0, 0, 0, 12]),
  'a.otf': bytes('OTTO', [0, 12]),
};

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
    expect(checkAssetFile('a.ttf', bytes('true'), 'data')).toMatchObject({ digest: assetDigest(bytes('true')) });
  });

  it('refuses a PNG named .gif, on the content field', () => {
    expect(fieldErrors(() => checkAssetFile('a.gif', PNG, 'file'))).toEqual([
      { field: 'file', messages: ['is not a .gif file (image/gif)'] },
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
