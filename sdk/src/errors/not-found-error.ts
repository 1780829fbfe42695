import { HttpError } from './http-error.js';

/** 404: no such resource, or one the caller may not see (other people's shops are 404, not 403). */
export class NotFoundError extends HttpError {
  override name = 'NotFoundError';
  override readonly code = 'NOT_FOUND';
}
