import { HttpError } from './http-error.js';

/** 401: no token, or an invalid or expired one (and no refresh could fix it). See `headers["www-authenticate"]`. */
export class UnauthorizedError extends HttpError {
  override name = 'UnauthorizedError';
  override readonly code = 'UNAUTHORIZED';
}
