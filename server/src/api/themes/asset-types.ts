/**
 * The files a theme may hold as assets, by extension, each checked against the file's own bytes so that a
 * file is served only with the media type its content really has: a PNG named `.gif` is refused, and so is
 * anything that merely starts like a PNG (see `image-formats.ts`, `font-formats.ts`).
 */
import { otfProblem, ttfProblem, woff2Problem, woffProblem } from './font-formats.js';
import { gifProblem, icoProblem, jpegProblem, pngProblem, webpProblem } from './image-formats.js';

/** One allowed kind of asset file. */
export interface AssetType {
  /** Media type sent with the file and shown as the asset's `content_type`. */
  mediaType: string;
  /** What keeps `bytes` from being a file of this kind, or `undefined` when they are one. */
  problem(bytes: Uint8Array): string | undefined;
}

const svgDecoder = new TextDecoder('utf-8', { fatal: true });

/** SVG is text: valid UTF-8 that opens with `<svg` or an XML declaration, and has an `<svg` element. */
function svgProblem(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = svgDecoder.decode(bytes);
  } catch {
    return 'it is not UTF-8 text';
  }
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (!start.startsWith('<svg') && !start.startsWith('<?xml')) return 'it does not open with <svg or <?xml';
  return start.includes('<svg') ? undefined : 'it has no <svg> element';
}

const JPEG_TYPE: AssetType = { mediaType: 'image/jpeg', problem: jpegProblem };

const TYPES: Record<string, AssetType> = {
  png: { mediaType: 'image/png', problem: pngProblem },
  jpg: JPEG_TYPE,
  jpeg: JPEG_TYPE,
  gif: { mediaType: 'image/gif', problem: gifProblem },
  webp: { mediaType: 'image/webp', problem: webpProblem },
  svg: { mediaType: 'image/svg+xml', problem: svgProblem },
  ico: { mediaType: 'image/x-icon', problem: icoProblem },
  woff: { mediaType: 'font/woff', problem: woffProblem },
  woff2: { mediaType: 'font/woff2', problem: woff2Problem },
  // Both extensions name the same sfnt container; the outlines (TrueType or CFF) decide the first bytes.
  ttf: { mediaType: 'font/ttf', problem: ttfProblem },
  otf: { mediaType: 'font/otf', problem: otfProblem },
};

/** Extensions accepted for assets, for error messages. */
export const ASSET_EXTENSIONS = Object.keys(TYPES);

/** The asset type of a (lower-case) extension, if it is allowed. */
export function assetTypeOf(extension: string): AssetType | undefined {
  return Object.hasOwn(TYPES, extension) ? TYPES[extension] : undefined;
}
