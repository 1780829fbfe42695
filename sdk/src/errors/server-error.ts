import { HttpError, type HttpErrorInit } from './http-error.js';

/** Any 5xx. Idempotent requests are retried on these before this error surfaces (see the client's `retry`). */
export class ServerError extends HttpError {
  override name = 'ServerError';
  declare readonly code: 'SERVER_ERROR';

  constructor(init: HttpErrorInit) {
    super(init, 'SERVER_ERROR');
  }
}
