import type { FieldError } from '../contract/index.js';
import { HttpError, type HttpErrorInit } from './http-error.js';

function fieldErrors(body: unknown): FieldError[] {
  const embedded = (body as { _embedded?: { errors?: unknown } } | undefined)?._embedded?.errors;
  if (!Array.isArray(embedded)) return [];
  return embedded.filter(
    (item): item is FieldError =>
      typeof item?.field === 'string' &&
      Array.isArray(item.messages) &&
      item.messages.every((m: unknown) => typeof m === 'string'),
  );
}

/**
 * 422: the body was understood but a field is invalid (including a field the endpoint does not know). The message is
 * the server's sentence, which names the field (`Invalid updated_on: …`); `errors` lists each field's messages.
 */
export class ValidationError extends HttpError {
  override name = 'ValidationError';
  declare readonly code: 'VALIDATION_FAILED';
  /** One entry per invalid field, e.g. `{ field: 'updated_on', messages: ['…'] }`. */
  declare readonly errors: readonly FieldError[];

  constructor(init: HttpErrorInit) {
    super(init, 'VALIDATION_FAILED');
    this.errors = fieldErrors(init.body);
  }
}
