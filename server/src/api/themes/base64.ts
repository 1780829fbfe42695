/**
 * Standard base64 (RFC 4648 §4) for asset files, without `Buffer` so that it runs in browsers too.
 * Decoding follows the web's forgiving-base64 (`atob`): ASCII whitespace is ignored and padding optional,
 * any other character outside the alphabet is an error.
 */

const DATA_URL_PREFIX = /^data:[^,]*;base64,/i;
const CHUNK = 0x1000;

/**
 * Decodes base64, tolerating line breaks and a `data:<type>;base64,` prefix; `undefined` when `text`
 * is not base64.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text.replace(DATA_URL_PREFIX, ''));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Encodes bytes as padded standard base64. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  // Small chunks through `apply` keep the argument list short: spreading large ones is several times slower.
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return btoa(binary);
}
