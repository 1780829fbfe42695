import { HttpError, type HttpErrorInit } from './http-error.js';

/** 404: no such resource, or one the caller may not see (other people's shops are 404, not 403). */
export class NotFoundError extends HttpError {
  override name = 'NotFoundError';
  declare readonly code: 'NOT_FOUND';

  constructor(init: HttpErrorInit) {
    super(init, 'NOT_FOUND');
  }
}
