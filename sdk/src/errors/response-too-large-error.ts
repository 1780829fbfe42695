import { HttpError } from './http-error.js';

/** What a {@link ResponseTooLargeError} is built from. `url` may hold secrets: the error keeps only its redacted form. */
export interface ResponseTooLargeInit {
  /** Upper-case method of the request. */
  method: string;
  url: string;
  /** The status of the answer, an error status included: its body is what was too large. */
  status: number;
  /** Response headers, lower-case names. */
  headers?: Record<string, string>;
  /** The limit passed, in bytes (the client's `maxResponseSize`, or the request's). */
  limit: number;
}

/**
 * An answer whose body is larger than the client reads (`maxResponseSize` of `createClient`, or of the `follow`
 * that asked for it): refused by its `Content-Length` before a byte was read, or as soon as the bytes read (decoded,
 * when compressed) passed the limit, the rest left unread and the connection closed. Whatever the status: an error
 * answer is read under the same limit. An `HttpError` like any answer the client cannot use (`body` is `undefined`:
 * it was not read), and never retried, since the same request would bring the same answer again.
 */
export class ResponseTooLargeError extends HttpError {
  override name = 'ResponseTooLargeError';
  declare readonly code: 'RESPONSE_TOO_LARGE';
  /** The limit passed, in bytes. */
  declare readonly limit: number;

  constructor(init: ResponseTooLargeInit) {
    super(init, 'RESPONSE_TOO_LARGE', `a body over ${init.limit} bytes (maxResponseSize), not read`);
    this.limit = init.limit;
  }
}
