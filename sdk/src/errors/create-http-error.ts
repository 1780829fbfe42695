import { BadRequestError } from './bad-request-error.js';
import { ForbiddenError } from './forbidden-error.js';
import { HttpError, type HttpErrorInit } from './http-error.js';
import { MethodNotAllowedError } from './method-not-allowed-error.js';
import { NotFoundError } from './not-found-error.js';
import { OAuthError } from './oauth-error.js';
import { PayloadTooLargeError } from './payload-too-large-error.js';
import { PreconditionFailedError } from './precondition-failed-error.js';
import { ServerError } from './server-error.js';
import { UnauthorizedError } from './unauthorized-error.js';
import { UnsupportedMediaTypeError } from './unsupported-media-type-error.js';
import { ValidationError } from './validation-error.js';

const byStatus: Record<number, new (init: HttpErrorInit) => HttpError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  412: PreconditionFailedError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  422: ValidationError,
};

/** The token endpoint answers `{error, error_description}` (RFC 6749 §5.2); the resource API never does. */
function isOAuthBody(body: unknown): boolean {
  // Only an object has a string `error`: `in` is then safe.
  return typeof (body as { error?: unknown } | null | undefined)?.error === 'string' && !('_class' in (body as object));
}

/** The typed error for a failed response whose body is already parsed. */
export function createHttpError(init: HttpErrorInit): HttpError {
  if (init.status >= 400 && init.status < 500 && isOAuthBody(init.body)) return new OAuthError(init);
  if (init.status >= 500) return new ServerError(init);
  const ErrorClass = byStatus[init.status] ?? HttpError;
  return new ErrorClass(init);
}
