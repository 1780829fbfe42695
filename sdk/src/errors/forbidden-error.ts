import { HttpError, type HttpErrorInit } from './http-error.js';

/** 403: the token is valid but lacks the scope the endpoint needs (`headers["x-accepted-oauth-scopes"]`). */
export class ForbiddenError extends HttpError {
  override name = 'ForbiddenError';
  declare readonly code: 'FORBIDDEN';

  constructor(init: HttpErrorInit) {
    super(init, 'FORBIDDEN');
  }
}
