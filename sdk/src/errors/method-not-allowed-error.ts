import { HttpError, type HttpErrorInit } from './http-error.js';

/** 405: the resource does not support the verb; `headers.allow` lists those it does. */
export class MethodNotAllowedError extends HttpError {
  override name = 'MethodNotAllowedError';
  declare readonly code: 'METHOD_NOT_ALLOWED';

  constructor(init: HttpErrorInit) {
    super(init, 'METHOD_NOT_ALLOWED');
  }
}
