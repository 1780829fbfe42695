import { redactUrl } from './redact.js';
import { StorefrontError } from './storefront-error.js';

/** One attempt of a request took longer than the client's `timeout`. */
export class TimeoutError extends StorefrontError {
  override name = 'TimeoutError';
  declare readonly code: 'TIMEOUT';
  declare readonly method: string;
  /** The request URL with credentials redacted. */
  declare readonly url: string;
  /** The limit that was exceeded, in ms. */
  declare readonly timeout: number;

  constructor(init: { method: string; url: string; timeout: number; cause?: unknown }) {
    const url = redactUrl(init.url);
    super('TIMEOUT', `${init.method} ${url} timed out after ${init.timeout} ms`, { cause: init.cause });
    this.method = init.method;
    this.url = url;
    this.timeout = init.timeout;
  }
}
