import { HttpError, type HttpErrorInit } from './http-error.js';

/** 413: the request body is over the server's limit. */
export class PayloadTooLargeError extends HttpError {
  override name = 'PayloadTooLargeError';
  declare readonly code: 'PAYLOAD_TOO_LARGE';

  constructor(init: HttpErrorInit) {
    super(init, 'PAYLOAD_TOO_LARGE');
  }
}
