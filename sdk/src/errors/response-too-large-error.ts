import { redactHeaders, redactUrl } from './redact.js';
import { StorefrontError } from './storefront-error.js';

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
 * when compressed) passed the limit, the rest left unread and the connection closed. Whatever the status: an error answer is read under the same
 * limit. Never retried, since the same request would bring the same answer again.
 */
export class ResponseTooLargeError extends StorefrontError {
  override name = 'ResponseTooLargeError';
  declare readonly code: 'RESPONSE_TOO_LARGE';
  /** Upper-case method of the request. */
  declare readonly method: string;
  /** The request URL with credentials redacted. */
  declare readonly url: string;
  declare readonly status: number;
  /** Response headers (lower-case names), credentials redacted. */
  declare readonly headers: Record<string, string>;
  /** The limit passed, in bytes. */
  declare readonly limit: number;

  constructor(init: ResponseTooLargeInit) {
    const url = redactUrl(init.url);
    const requestId = init.headers?.['x-request-id'];
    super(
      'RESPONSE_TOO_LARGE',
      `${init.method} ${url} answered ${init.status} with a body over ${init.limit} bytes (maxResponseSize): not read${requestId ? ` [request ${requestId}]` : ''}`,
    );
    if (requestId) (this as { requestId?: string }).requestId = requestId;
    this.method = init.method;
    this.url = url;
    this.status = init.status;
    this.headers = redactHeaders(init.headers ?? {});
    this.limit = init.limit;
  }
}
