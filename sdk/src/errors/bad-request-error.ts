import { HttpError } from './http-error.js';

/** 400: malformed JSON, a bad query value or a bad JSONP callback. */
export class BadRequestError extends HttpError {
  override name = 'BadRequestError';
  override readonly code = 'BAD_REQUEST';
}
