import type { ErrorBody, FieldError } from '@storefront-platform/sdk/internal';

/**
 * An error the core renders as the wire contract's error body (`{"_class":["errors"],"message":…}`),
 * with the field errors of a 422 under `_embedded.errors`. Throw it from any handler; anything else
 * thrown is a bug and becomes a 500.
 */
export class HttpError extends Error {
  constructor(
    /** HTTP status: 4xx, or 5xx for a failure of the server's own that is no bug (a full disk: 507). */
    readonly status: number,
    message: string,
    /** Validation errors by field (422). */
    readonly fieldErrors?: readonly FieldError[],
    /** Extra response headers, e.g. `allow` on a 405 or `www-authenticate` on a 401. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** The wire form of this error. */
  toBody(): ErrorBody {
    const body: ErrorBody = { _class: ['errors'], message: this.message };
    if (this.fieldErrors?.length) body._embedded = { errors: [...this.fieldErrors] };
    return body;
  }
}

/** A 422 on one field (a body member the endpoint rejects, or does not know). */
export function validationError(field: string, messages: string | readonly string[]): HttpError {
  const list = typeof messages === 'string' ? [messages] : [...messages];
  return new HttpError(422, `Invalid ${field}: ${list.join('; ')}`, [{ field, messages: list }]);
}

/** A 400 for a bad query parameter, malformed JSON or a bad JSONP callback. */
export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

/** A 404: an unknown route, or a resource the caller may not see. */
export function notFound(message = 'Not found'): HttpError {
  return new HttpError(404, message);
}
