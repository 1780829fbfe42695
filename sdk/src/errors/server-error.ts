import { HttpError } from './http-error.js';

/** Any 5xx. Idempotent requests are retried on these before this error surfaces (see the client's `retry`). */
export class ServerError extends HttpError {
  override name = 'ServerError';
  override readonly code = 'SERVER_ERROR';
}
