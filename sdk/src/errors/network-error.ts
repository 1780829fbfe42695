import { redactUrl } from './redact.js';
import { StorefrontError } from './storefront-error.js';

/** The request got no response (DNS, refused connection, reset, CORS…); the original failure is `cause`. */
export class NetworkError extends StorefrontError {
  override name = 'NetworkError';
  declare readonly code: 'NETWORK_ERROR';
  declare readonly method: string;
  /** The request URL with credentials redacted. */
  declare readonly url: string;

  constructor(init: { method: string; url: string; cause?: unknown }) {
    const url = redactUrl(init.url);
    const reason = init.cause instanceof Error ? `: ${init.cause.message}` : '';
    super('NETWORK_ERROR', `${init.method} ${url} failed without a response${reason}`, { cause: init.cause });
    this.method = init.method;
    this.url = url;
  }
}
