import { HttpError, type HttpErrorInit } from './http-error.js';

/** A successful response whose body does not match its `Content-Type` (e.g. JSON that does not parse). */
export class InvalidResponseError extends HttpError {
  override name = 'InvalidResponseError';
  declare readonly code: 'INVALID_RESPONSE';

  constructor(init: HttpErrorInit) {
    super(init, 'INVALID_RESPONSE');
  }
}
