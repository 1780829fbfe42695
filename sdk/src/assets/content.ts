/**
 * Which kind of file each allowed asset extension names, and whether an asset's bytes are one: the API refuses an
 * asset whose content is not of its extension's kind (a PNG named `.gif`, a truncated PNG, text named `.woff`), so
 * that a file is served only with the media type its content really has. One table for the reference server, which
 * enforces it, and for apps and the themes CLI, which check a file before sending it.
 */
import type { ASSET_EXTENSIONS } from '../contract/limits.js';
import { otfProblem, ttfProblem, woff2Problem, woffProblem } from './font.js';
import { gifProblem, icoProblem, jpegProblem, pngProblem, webpProblem } from './image.js';

/** One allowed kind of asset file. */
interface AssetKind {
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

const JPEG: AssetKind = { mediaType: 'image/jpeg', problem: jpegProblem };

/** The allowed kinds by extension: the compiler holds them to the API's list. */
const KINDS: { readonly [E in (typeof ASSET_EXTENSIONS)[number]]: AssetKind } = {
  png: { mediaType: 'image/png', problem: pngProblem },
  jpg: JPEG,
  jpeg: JPEG,
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

/** What {@link checkAssetContent} found of an asset file. */
export interface AssetContent {
  /** The media type the API serves the asset with (its `content_type`), from the file name's extension. */
  mediaType: string;
  /**
   * Why the API refuses the bytes, in the words of its 422 (`must not be empty`, or e.g. `is not a .png file
   * (image/png): no PNG signature`); `undefined` when they are a file of the extension's kind.
   */
  problem: string | undefined;
}

/**
 * Checks an asset's bytes against the kind of file its name's extension names, as the API does on upload: not a
 * signature alone but the structure a decoder reads first (PNG's chunks and CRCs, JPEG's segments up to the frame
 * header, a font's table directory…); pixels and glyphs are left to the browser.
 *
 * @param fileName - The asset's file name (`images/logo.png`); its extension is compared case-insensitively.
 * @returns The media type and the problem, if any; `undefined` when the extension is none of `ASSET_EXTENSIONS`
 *   (the API refuses such a name before it looks at the bytes).
 *
 * @example
 * ```ts
 * import { checkAssetContent } from '@storefront-platform/sdk/assets';
 *
 * const content = checkAssetContent('images/logo.png', new Uint8Array(await file.arrayBuffer()));
 * if (content?.problem) console.error(`images/logo.png ${content.problem}`);
 * ```
 */
export function checkAssetContent(fileName: string, bytes: Uint8Array): AssetContent | undefined {
  const dot = fileName.lastIndexOf('.');
  const extension = fileName.slice(dot + 1).toLowerCase();
  if (dot < 0 || !Object.hasOwn(KINDS, extension)) return undefined;
  const { mediaType, problem } = KINDS[extension as keyof typeof KINDS];
  if (bytes.byteLength === 0) return { mediaType, problem: 'must not be empty' };
  const found = problem(bytes);
  return { mediaType, problem: found && `is not a .${extension} file (${mediaType}): ${found}` };
}
