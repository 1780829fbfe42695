import { sha256 } from '../shared/sha256.js';
import { toSeconds } from './http-date.js';

/** Media type of every JSON representation. */
export const JSON_TYPE = 'application/json; charset=utf-8';
/** Whether a media type is JSON: `application/json`, or a type with the `+json` suffix (RFC 6839 §3.1). */
export const isJsonMediaType = (type: string) => /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(type);

/**
 * A representation ready to send: serialised and hashed once, then served as often as it is asked for.
 */
export interface Entity {
  /**
   * The bytes (or text) to send; never mutate them. A cached entity hands out the same object on every
   * response until the representation changes, so a shell may memoise per-body work (its gzip) by identity.
   */
  body: string | Uint8Array;
  /** `Content-Type` header value. */
  contentType: string;
  /** Strong validator, quoted (`"…"`). */
  etag: string;
  /** Epoch ms, whole seconds (the precision of `Last-Modified`). */
  lastModified: number;
  /**
   * The representation changed more than once within the second of `lastModified`: a client holding that date
   * may hold an older version, so the date is a weak validator (RFC 9110 §8.8.2.2) and date conditions cannot
   * vouch for it. Entity tags are unaffected.
   */
  weakLastModified?: true;
}

/** What ends the gzip representation's entity tag, inside its quotes: `"…-gzip"`. */
export const GZIP_ETAG_SUFFIX = '-gzip"';

/**
 * The strong ETag of the gzip coding of the representation tagged `etag`: a strong validator names one
 * representation byte for byte (RFC 9110 §8.8.3), and the gzip bytes are another. Preconditions take either tag as
 * naming the resource's current state (see `conditional.ts`).
 */
export function gzipEtag(etag: string): string {
  return etag.slice(0, -1) + GZIP_ETAG_SUFFIX;
}

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A strong ETag for these bytes: the first 128 bits of their SHA-256, hex. */
function strongEtag(body: string | Uint8Array): string {
  const digest = sha256(typeof body === 'string' ? encoder.encode(body) : body);
  let hex = '"';
  for (let i = 0; i < 16; i++) hex += HEX[digest[i]!];
  return hex + '"';
}

/**
 * Serialises a JSON value into an {@link Entity}. The body is kept as UTF-8 bytes: encoded once here,
 * not on every send.
 */
export function jsonEntity(value: unknown, lastModified: number): Entity {
  const body = encoder.encode(JSON.stringify(value));
  return { body, contentType: JSON_TYPE, etag: strongEtag(body), lastModified: toSeconds(lastModified) };
}

/** An {@link Entity} of any other media type (an HTML page, a file). */
export function documentEntity(body: string | Uint8Array, contentType: string, lastModified: number): Entity {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  return { body: bytes, contentType, etag: strongEtag(bytes), lastModified: toSeconds(lastModified) };
}
