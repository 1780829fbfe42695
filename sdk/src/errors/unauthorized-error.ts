import { HttpError, type HttpErrorInit } from './http-error.js';

/** 401: no token, or an invalid or expired one (and no refresh could fix it). See `headers["www-authenticate"]`. */
export class UnauthorizedError extends HttpError {
  override name = 'UnauthorizedError';
  declare readonly code: 'UNAUTHORIZED';

  constructor(init: HttpErrorInit) {
    super(init, 'UNAUTHORIZED');
  }
}
