/**
 * base64 (RFC 4648 §4) and base64url (§5) without `Buffer`, so that the SDK, the reference server and its MSW
 * handlers share it in Node and in browsers. Decoding follows the web's forgiving-base64 (`atob`): ASCII
 * whitespace is ignored and padding optional; any other character outside the alphabet makes it `undefined`.
 */

const CHUNK = 0x1000;

function toBinary(bytes: Uint8Array): string {
  let binary = '';
  // Small chunks through `apply` keep the argument list short: spreading large ones is several times slower.
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return binary;
}

/** Padded standard base64 of `bytes`. */
export function encodeBase64(bytes: Uint8Array): string {
  return btoa(toBinary(bytes));
}

/** The bytes of base64 `text`; `undefined` when `text` is not base64. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** base64url of `bytes`, without padding (as in JWTs, PKCE and tokens). */
export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of base64url `text`, padded or not; standard base64 is read too. `undefined` when neither. */
export function decodeBase64Url(text: string): Uint8Array | undefined {
  return decodeBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}
