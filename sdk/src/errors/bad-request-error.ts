import { HttpError, type HttpErrorInit } from './http-error.js';

/** 400: malformed JSON, a bad query value or a bad JSONP callback. */
export class BadRequestError extends HttpError {
  override name = 'BadRequestError';
  declare readonly code: 'BAD_REQUEST';

  constructor(init: HttpErrorInit) {
    super(init, 'BAD_REQUEST');
  }
}
