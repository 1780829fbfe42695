import { HttpError } from './http-error.js';

/** 413: the request body is over the server's limit. */
export class PayloadTooLargeError extends HttpError {
  override name = 'PayloadTooLargeError';
  override readonly code = 'PAYLOAD_TOO_LARGE';
}
