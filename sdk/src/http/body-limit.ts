/**
 * The most a client reads of one answer (`ClientOptions.maxResponseSize`). Bodies are counted as they stream in,
 * decoded (a compressed answer counts at its real size, which is what the client would hold), and the connection
 * is closed as soon as the count passes the limit: a broken proxy or a hostile server can make a client hold no
 * more than the limit plus one chunk per request, whatever it sends.
 */
import { ResponseTooLargeError } from '../errors/response-too-large-error.js';
import { headerRecord } from './media-type.js';

/*
 * The default is the largest representation the API sends: a theme at every limit of the reference server
 * (server/src/api/themes/theme.ts and template.ts; body-limit.test.ts checks the default against the server's
 * limits and representations), its templates embedded with their bodies. A body's characters stay one byte each
 * as JSON but for the control characters, which JSON escapes as `\u00XX`: six bytes for one, so a body of 64 KiB takes at most
 * 384 KiB. Each template and asset gets 4 KiB for its other members and links (file names are at most 120
 * characters), the theme as much beside its settings (at most 64 KiB as JSON, sent as they are stored).
 * Lists are far smaller: at most 100 summaries a page, without bodies.
 */
const TEMPLATES_PER_THEME = 1000;
const TEMPLATE_BYTES = 64 * 1024;
const ASSETS_PER_THEME = 300;
const SETTINGS_BYTES = 64 * 1024;
/** What a template, an asset or the theme itself holds besides a body or settings, at most. */
const MEMBERS_BYTES = 4096;
/** JSON's worst expansion of a string: `\u00XX` for one byte. */
const JSON_ESCAPE_FACTOR = 6;

/** The limit of a client that sets none: 398 610 432 bytes (about 380 MiB). */
export const DEFAULT_MAX_RESPONSE_SIZE =
  TEMPLATES_PER_THEME * (JSON_ESCAPE_FACTOR * TEMPLATE_BYTES + MEMBERS_BYTES) +
  ASSETS_PER_THEME * MEMBERS_BYTES +
  SETTINGS_BYTES +
  MEMBERS_BYTES;

/** Statuses whose answers have no body (Fetch's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** A limit in bytes, or `false` for none. */
export type BodyLimit = number | false;

/** The limit `option` asks for (`ClientOptions.maxResponseSize`); a `TypeError` for anything but a positive integer or `false`. */
export function bodyLimit(option: BodyLimit | undefined): BodyLimit {
  if (option === undefined) return DEFAULT_MAX_RESPONSE_SIZE;
  if (option === false || (Number.isSafeInteger(option) && option > 0)) return option;
  throw new TypeError(`maxResponseSize: ${String(option)} is not a number of bytes (a positive integer) or false`);
}

/**
 * The limit of one request: the client's, or `perRequest` (`FollowOptions.maxResponseSize`) when lower; a
 * `TypeError` when `perRequest` is not a positive integer.
 */
export function requestLimit(client: BodyLimit, perRequest: number | undefined): BodyLimit {
  if (perRequest === undefined) return client;
  if (!Number.isSafeInteger(perRequest) || perRequest <= 0) {
    throw new TypeError(`maxResponseSize: ${String(perRequest)} is not a number of bytes (a positive integer)`);
  }
  return client === false ? perRequest : Math.min(client, perRequest);
}

/** The request an answer came for, as its error names it. */
export interface LimitedRequest {
  /** Upper-case. */
  method: string;
  url: string;
}

/**
 * `response` with a body that fails with a {@link ResponseTooLargeError} once more than `limit` bytes came
 * through, the rest cancelled (which closes the connection); throws it at once, the body cancelled unread, when an
 * uncompressed answer's `Content-Length` declares more. A response without a body (HEAD, 204, 304) is returned as
 * it is.
 */
export function limitBody(response: Response, limit: BodyLimit, request: LimitedRequest): Response {
  const { body } = response;
  // Chromium gives a 204 or a 304 a body stream (empty), and a Response of such a status cannot be made with one.
  if (limit === false || !body || NULL_BODY_STATUSES.has(response.status)) return response;
  const tooLarge = () =>
    new ResponseTooLargeError({ ...request, status: response.status, headers: headerRecord(response.headers), limit });
  // Content-Length counts the bytes sent: a compressed answer's decoded body is another size.
  const encoding = response.headers.get('content-encoding')?.trim().toLowerCase();
  if (!encoding || encoding === 'identity') {
    if (Number(response.headers.get('content-length')) > limit) {
      body.cancel().catch(() => {});
      throw tooLarge();
    }
  }
  const reader = body.getReader();
  let read = 0;
  // Pulled only as its reader reads (no queue of its own), so that no byte past the chunk that crosses the limit is read.
  const limited = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        read += value.byteLength;
        if (read <= limit) return controller.enqueue(value);
        const error = tooLarge();
        controller.error(error);
        await reader.cancel(error).catch(() => {});
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return withBody(response, limited);
}

/**
 * `response` with `body` in place of its own, and its status, headers and URL: a constructed Response has no URL,
 * and relative links resolve against it.
 */
export function withBody(response: Response, body: BodyInit | null): Response {
  const copy = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(copy, 'url', { value: response.url });
  return copy;
}
