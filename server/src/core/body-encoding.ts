/**
 * Request bodies are read as sent: no shell decodes a `Content-Encoding`. A body in one would otherwise be
 * parsed as plain bytes and refused for its syntax, which hides the real reason; readers answer 415 instead,
 * naming the only coding accepted (RFC 9110 §15.5.16).
 */
import type { HeaderReader } from './types.js';

/** The headers of that 415 (RFC 9110 §12.5.3: `Accept-Encoding` on a response lists the codings accepted). */
export const IDENTITY_ONLY: Readonly<Record<string, string>> = { 'accept-encoding': 'identity' };

/** Why a body with these headers cannot be read, or `undefined` when it is not encoded (none, or `identity`). */
export function unsupportedEncoding(headers: HeaderReader): string | undefined {
  const value = headers.get('content-encoding');
  if (value === null) return undefined;
  const coding = value
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .find((part) => part !== '' && part !== 'identity');
  if (coding === undefined) return undefined;
  const shown = JSON.stringify(coding.length > 40 ? `${coding.slice(0, 40)}…` : coding);
  return `Unsupported Content-Encoding ${shown}: send the request body unencoded`;
}
