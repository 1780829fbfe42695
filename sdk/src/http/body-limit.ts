/**
 * The most a client reads of one answer (`ClientOptions.maxResponseSize`). Bodies are counted as they stream in,
 * decoded (a compressed answer counts at its real size, which is what the client would hold), and the connection
 * is closed as soon as the count passes the limit: a broken proxy or a hostile server can make a client hold no
 * more than the limit plus one chunk per request, whatever it sends.
 */
import { ResponseTooLargeError } from '../errors/response-too-large-error.js';
import { headerRecord } from './media-type.js';

/**
 * The limit of a client that sets none, for an answer that cannot be a theme: 64 MiB, so that eight answers read at
 * once fit in 512 MB (a browser tab, a small container). An answer that may be a whole theme gets
 * `maxThemeDocumentBytes()` instead (see `TransportRequest.theme`).
 */
export const DEFAULT_MAX_RESPONSE_SIZE = 64 * 1024 * 1024;

/**
 * `maxThemeDocumentBytes()` worked out (about 380 MiB): the formula reads `API_LIMITS`, which every client would
 * then carry for this one number. A test holds the two equal.
 */
export const MAX_THEME_DOCUMENT_BYTES = 398_610_432;

/** The most bytes read of an error's body, whatever the limit (ky's own cap): an error says what it has to in far fewer. */
const ERROR_BODY_LIMIT = 10 * 1024 * 1024;

/** The limit of an answer of `status` in a request limited to `limit`: an error's body gets 10 MiB at most. */
export function limitOf(status: number, limit: BodyLimit): BodyLimit {
  return status < 400 || (limit !== false && limit < ERROR_BODY_LIMIT) ? limit : ERROR_BODY_LIMIT;
}

/** Statuses whose answers have no body (Fetch's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** A limit in bytes, or `false` for none. */
export type BodyLimit = number | false;

/**
 * The limit `option` asks for (`ClientOptions.maxResponseSize`), `undefined` for the defaults; a `TypeError` for
 * anything but a positive integer or `false`.
 */
export function bodyLimit(option: BodyLimit | undefined): BodyLimit | undefined {
  return option === undefined || option === false ? option : bytes(option, ' or false');
}

/** `value` when it is a number of bytes (a positive integer); else a `TypeError` that says what else `also` takes. */
function bytes(value: number, also = ''): number {
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw new TypeError(`maxResponseSize: ${String(value)} is not a positive integer (of bytes)${also}`);
}

/**
 * The limit of one request: the client's, or `perRequest` (`FollowOptions.maxResponseSize`) when lower; a
 * `TypeError` when `perRequest` is not a positive integer.
 */
export function requestLimit(client: BodyLimit, perRequest: number | undefined): BodyLimit {
  if (perRequest === undefined) return client;
  return client === false ? bytes(perRequest) : Math.min(client, bytes(perRequest));
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
