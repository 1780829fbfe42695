import type { ErrorCode } from './codes.js';
import { redactHeaders, redactUrl } from './redact.js';
import { StorefrontError } from './storefront-error.js';

/** What an HTTP error is built from. `url` may hold secrets: the error keeps only its redacted form. */
export interface HttpErrorInit {
  /** Upper-case method of the failed request. */
  method: string;
  url: string;
  status: number;
  statusText?: string;
  /** Response headers, lower-case names. */
  headers?: Record<string, string>;
  /** The parsed JSON body, the text of a non-JSON body, or `undefined` when empty. */
  body?: unknown;
  cause?: unknown;
}

/** The server's own sentence: an error body's `message`, else an OAuth error's description, else its code. */
function serverMessage(body: unknown): string | undefined {
  const fields = body as Record<string, unknown> | null | undefined;
  return [fields?.message, fields?.error_description, fields?.error].find((text) => typeof text === 'string') as
    | string
    | undefined;
}

/**
 * An answer the client cannot use: a response with a non-2xx status, or one it cannot read
 * (`InvalidResponseError`, `ResponseTooLargeError`). Subclasses exist for each status the API documents;
 * other statuses (e.g. 409, 429) come as a plain `HttpError` with code `HTTP_ERROR`.
 */
export class HttpError extends StorefrontError {
  override name = 'HttpError';
  // Public fields are declared and set by the constructor: defined fields would be emitted twice in bundles.
  /** Upper-case method of the failed request. */
  declare readonly method: string;
  /** The request URL with credentials redacted. */
  declare readonly url: string;
  declare readonly status: number;
  /** Response headers (lower-case names), e.g. `www-authenticate`, `allow`, `retry-after`; credentials redacted. */
  declare readonly headers: Record<string, string>;
  /** The parsed JSON body, the text of a non-JSON body, or `undefined` when empty. */
  declare readonly body: unknown;

  /** `problem`: what is wrong with a successful answer, which the message says instead of a failure. */
  constructor(init: HttpErrorInit, code: ErrorCode = 'HTTP_ERROR', problem?: string) {
    const url = redactUrl(init.url);
    const reason = serverMessage(init.body) ?? init.statusText;
    const requestId = init.headers?.['x-request-id'];
    const message = problem
      ? `answered ${init.status}, which the client cannot use: ${problem}`
      : `failed with ${init.status}${reason ? `: ${reason}` : ''}`;
    super(code, `${init.method} ${url} ${message}${requestId ? ` [request ${requestId}]` : ''}`, { cause: init.cause });
    if (requestId) (this as { requestId?: string }).requestId = requestId;
    this.method = init.method;
    this.url = url;
    this.status = init.status;
    this.headers = redactHeaders(init.headers ?? {});
    this.body = init.body;
  }
}
