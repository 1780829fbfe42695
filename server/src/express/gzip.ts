/**
 * gzip for the Express shell, decided per response and paid once per body. The core hands out the same
 * body object for every response of an unchanged representation (see `Entity.body`), so the gzipped bytes
 * are remembered by body identity and dropped with the body when the representation changes. Small bodies are
 * gzipped on the spot, larger ones in libuv's thread pool (see {@link SYNC_GZIP_LIMIT}).
 */
import type { CoreResponse } from '../core/types.js';
import { weightOf, weights } from '../http/quality.js';

/**
 * node:zlib, loaded at the first gzip rather than at the start: a start answers its first, small requests without
 * it (its loading is 1.5 ms of CPU on Node 20, 2 % of a bare server's start).
 */
const zlib = () => process.getBuiltinModule('node:zlib');

const gzipSync = (bytes: Uint8Array) => zlib().gzipSync(bytes);

const gzipAsync = (bytes: Uint8Array) =>
  new Promise<Uint8Array>((resolve, reject) =>
    zlib().gzip(bytes, (error, zipped) => (error ? reject(error) : resolve(zipped))),
  );

const encoder = new TextEncoder();

/** Smaller bodies are sent as they are: gzip's framing would eat most of the gain. */
export const GZIP_THRESHOLD = 1024;

/**
 * Smaller answers to writes (every method but GET and HEAD) are sent as they are. A write's answer is made for that
 * one request: its gzip is paid on every write, by the server and again by the client that inflates it, where a
 * representation read with GET is compressed once per version and served many times (see {@link GzipCache}). It is
 * mostly the resource the client has just sent, itself uncompressed, and an answer of this size reaches the client
 * in the first round trip either way (a new connection may send about ten segments at once, RFC 6928): gzip would
 * save a few kilobytes' transfer, not a round trip, for processor time on both ends. A larger answer (a theme,
 * its templates embedded) is compressed as a GET's would be.
 */
export const WRITE_GZIP_THRESHOLD = 14 * 1024;

/** Media types worth compressing: text, JSON, JavaScript, XML and SVG (images and fonts are compressed already). */
const COMPRESSIBLE =
  /^(?:text\/|application\/(?:json|javascript|ecmascript|xml|[\w.+-]+\+(?:json|xml))\b|image\/svg\+xml\b)/i;

/**
 * Whether a response with this body could be sent gzipped to a client that accepts it: a compressible media
 * type, at least {@link GZIP_THRESHOLD} bytes (an answer to a write, `method` other than GET and HEAD: at least
 * {@link WRITE_GZIP_THRESHOLD}), not encoded already, and no `Cache-Control: no-transform`.
 */
export function isGzippable(response: CoreResponse, body: string | Uint8Array, method = 'GET'): boolean {
  const { headers } = response;
  const type = headers['content-type'];
  if (type === undefined || !COMPRESSIBLE.test(type) || headers['content-encoding'] !== undefined) return false;
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  const threshold = method === 'GET' || method === 'HEAD' ? GZIP_THRESHOLD : WRITE_GZIP_THRESHOLD;
  return size >= threshold && !/\bno-transform\b/i.test(headers['cache-control'] ?? '');
}

/** `Vary` with `Accept-Encoding` added unless it is there already (or `*`). */
export function varyOnEncoding(vary: string | undefined): string {
  if (!vary) return 'Accept-Encoding';
  return /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}

/**
 * Whether a client sending this `Accept-Encoding` gets gzip (RFC 9110 §12.5.3): gzip (or its alias `x-gzip`, else
 * `*`) has a non-zero weight at least that of `identity` (its own entry, else `*`'s). Unlisted, `identity` stays
 * acceptable but at the lowest preference, so `gzip;q=0.1` alone still gets gzip, while
 * `gzip;q=0.001, identity;q=1` does not. With nothing acceptable (`identity;q=0` alone, `*;q=0`) the body goes
 * uncompressed anyway rather than as a 406: RFC 9110 §12.1 lets a server disregard the field, and an error would
 * cost the client more than the bytes.
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  // A client sends the same field with each request: parsed once, not per request.
  if (acceptEncoding !== lastAccepted.field) {
    const listed = weights(acceptEncoding);
    const gzip = weightOf(listed, 'gzip', 'x-gzip', '*') ?? 0;
    const identity = weightOf(listed, 'identity', '*') ?? 0;
    lastAccepted = { field: acceptEncoding, gzip: gzip > 0 && gzip >= identity };
  }
  return lastAccepted.gzip;
}

/** The last `Accept-Encoding` field {@link acceptsGzip} read, and its answer. */
let lastAccepted: { field: string | undefined; gzip: boolean } = { field: undefined, gzip: false };

/**
 * Bodies up to this size are gzipped synchronously. A compression in the thread pool costs the event loop more than
 * a small one done in place (measured on Node 20 for a 2 KB JSON answer: about 130 µs of the loop's time and 100 to
 * 150 µs of processor time in all, against 25 to 65 µs done in place: the stream, the hand-over and the callback
 * cost more than deflating a few kilobytes); from tens of kilobytes the deflating itself takes the longer, which the pool keeps off
 * the loop (16 KiB: about 0.1 ms in place on a busy machine).
 */
export const SYNC_GZIP_LIMIT = 16 * 1024;

/** The gzip of `bytes`: in place when small (see {@link SYNC_GZIP_LIMIT}), else in the thread pool. */
function compress(bytes: Uint8Array): Uint8Array | Promise<Uint8Array> {
  return bytes.byteLength <= SYNC_GZIP_LIMIT ? gzipSync(bytes) : gzipAsync(bytes);
}

/** The gzipped bytes of each body object already compressed, or the compression under way. */
export class GzipCache {
  private readonly done = new WeakMap<Uint8Array, Uint8Array>();
  private readonly pending = new WeakMap<Uint8Array, Promise<Uint8Array>>();

  /**
   * The gzip of `body`: computed once per byte array, shared by concurrent requests while it runs (a small one is
   * done before this returns). Text bodies (JSONP, OAuth answers) are built per request, so theirs is not kept.
   */
  gzip(body: string | Uint8Array): Uint8Array | Promise<Uint8Array> {
    if (typeof body === 'string') return compress(encoder.encode(body));
    const done = this.done.get(body);
    if (done) return done;
    if (body.byteLength <= SYNC_GZIP_LIMIT) {
      const zipped = gzipSync(body);
      this.done.set(body, zipped);
      return zipped;
    }
    let pending = this.pending.get(body);
    if (!pending) {
      pending = gzipAsync(body).then(
        (zipped) => {
          this.done.set(body, zipped);
          this.pending.delete(body);
          return zipped;
        },
        (error: unknown) => {
          // Not remembered: the next request tries again.
          this.pending.delete(body);
          throw error;
        },
      );
      this.pending.set(body, pending);
    }
    return pending;
  }
}
