/**
 * The files a theme may hold as assets, by extension, each checked against the file's own first bytes so
 * that a file is served only with the media type its content really has (a PNG named `.gif` is refused).
 */

/** One allowed kind of asset file. */
export interface AssetType {
  /** Media type sent with the file and shown as the asset's `content_type`. */
  mediaType: string;
  /** Whether `bytes` really are a file of this kind. */
  matches(bytes: Uint8Array): boolean;
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((byte, i) => bytes[at + i] === byte);
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

const signature =
  (...alternatives: readonly (readonly number[])[]) =>
  (bytes: Uint8Array) =>
    alternatives.some((s) => startsWith(bytes, s));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const TRUETYPE = [0x00, 0x01, 0x00, 0x00];

const svgDecoder = new TextDecoder('utf-8', { fatal: true });

/** SVG is text: valid UTF-8 that opens with `<svg` or an XML declaration, and has an `<svg` element. */
function isSvg(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = svgDecoder.decode(bytes);
  } catch {
    return false;
  }
  const start = text.replace(/^\uFEFF/, '').trimStart();
  return (start.startsWith('<svg') || start.startsWith('<?xml')) && start.includes('<svg');
}

const JPEG_TYPE: AssetType = { mediaType: 'image/jpeg', matches: signature(JPEG) };

const TYPES: Record<string, AssetType> = {
  png: { mediaType: 'image/png', matches: signature(PNG) },
  jpg: JPEG_TYPE,
  jpeg: JPEG_TYPE,
  gif: { mediaType: 'image/gif', matches: signature(ascii('GIF87a'), ascii('GIF89a')) },
  webp: {
    mediaType: 'image/webp',
    matches: (bytes) => startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8),
  },
  svg: { mediaType: 'image/svg+xml', matches: isSvg },
  ico: { mediaType: 'image/x-icon', matches: signature([0x00, 0x00, 0x01, 0x00]) },
  woff: { mediaType: 'font/woff', matches: signature(ascii('wOFF')) },
  woff2: { mediaType: 'font/woff2', matches: signature(ascii('wOF2')) },
  // Both extensions name the same sfnt container; the outlines (TrueType or CFF) decide the first bytes.
  ttf: { mediaType: 'font/ttf', matches: signature(TRUETYPE, ascii('true')) },
  otf: { mediaType: 'font/otf', matches: signature(ascii('OTTO'), TRUETYPE) },
};

/** Extensions accepted for assets, for error messages. */
export const ASSET_EXTENSIONS = Object.keys(TYPES);

/** The asset type of a (lower-case) extension, if it is allowed. */
export function assetTypeOf(extension: string): AssetType | undefined {
  return Object.hasOwn(TYPES, extension) ? TYPES[extension] : undefined;
}
