/**
 * `@storefront-platform/sdk/assets`: the API's check of an asset's content, as apps and the themes CLI run it
 * before an upload. The server's tests (server/test/themes/asset-file.test.ts) go through every format's damage;
 * these hold the public function to the words and media types the server answers with.
 */
import { ASSET_EXTENSIONS } from '@storefront-platform/sdk';
import { checkAssetContent } from '@storefront-platform/sdk/assets';
import { describe, expect, it } from 'vitest';
import {
  sampleGif,
  sampleIco,
  sampleJpeg,
  samplePng,
  sampleSfnt,
  sampleSvg,
  sampleWebp,
  sampleWoff,
  sampleWoff2,
} from '../../server/test/helpers/asset-samples.js';

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

/** A well-formed file and the media type of each allowed extension. */
const GOOD: Record<(typeof ASSET_EXTENSIONS)[number], [Uint8Array, string]> = {
  png: [samplePng(), 'image/png'],
  jpg: [sampleJpeg(), 'image/jpeg'],
  jpeg: [sampleJpeg(), 'image/jpeg'],
  gif: [sampleGif(), 'image/gif'],
  webp: [sampleWebp(), 'image/webp'],
  svg: [sampleSvg(), 'image/svg+xml'],
  ico: [sampleIco(), 'image/x-icon'],
  woff: [sampleWoff(), 'font/woff'],
  woff2: [sampleWoff2(), 'font/woff2'],
  ttf: [sampleSfnt([0, 1, 0, 0]), 'font/ttf'],
  otf: [sampleSfnt(ascii('OTTO')), 'font/otf'],
};

describe('checkAssetContent', () => {
  it.each(ASSET_EXTENSIONS)('takes a well-formed .%s file, with its media type', (extension) => {
    const [bytes, mediaType] = GOOD[extension];
    expect(checkAssetContent(`assets/a.${extension}`, bytes)).toEqual({ mediaType, problem: undefined });
  });

  it("refuses bytes of another kind, or none, in the words of the API's 422", () => {
    expect(checkAssetContent('images/logo.png', sampleJpeg())).toEqual({
      mediaType: 'image/png',
      problem: 'is not a .png file (image/png): no PNG signature',
    });
    expect(checkAssetContent('Logo.GIF', samplePng())).toEqual({
      mediaType: 'image/gif',
      problem: 'is not a .gif file (image/gif): no GIF87a or GIF89a header',
    });
    // Cut short: a signature alone does not make a PNG.
    expect(checkAssetContent('a.png', samplePng().subarray(0, 40))?.problem).toBe(
      'is not a .png file (image/png): it ends before its IEND chunk',
    );
    expect(checkAssetContent('a.woff2', new Uint8Array(0))).toEqual({
      mediaType: 'font/woff2',
      problem: 'must not be empty',
    });
  });

  it('says nothing of a name without an allowed extension: the API refuses the name first', () => {
    for (const name of ['a.html', 'png', 'a.png.txt', 'a.'])
      expect(checkAssetContent(name, samplePng())).toBeUndefined();
  });
});
