import { HttpError, type HttpErrorInit } from './http-error.js';

/** What an {@link InvalidResponseError} is built from: an answer, and what is wrong with it when the client says. */
export interface InvalidResponseInit extends HttpErrorInit {
  /** What is wrong, as a phrase naming where (`_embedded.shops[0] is null, not a HAL resource`). */
  problem?: string;
}

/**
 * A successful response the client cannot use: a body that does not match its `Content-Type` (JSON that does not
 * parse), JSON that is not a HAL resource where one was expected (no `_links`, an array, a `null` among the
 * embedded resources…), JSON where the link announced another media type, or the reverse.
 */
export class InvalidResponseError extends HttpError {
  override name = 'InvalidResponseError';
  declare readonly code: 'INVALID_RESPONSE';
  /** What is wrong with the answer, when the client said. */
  declare readonly problem: string | undefined;

  constructor(init: InvalidResponseInit) {
    super(init, 'INVALID_RESPONSE', init.problem);
    this.problem = init.problem;
  }
}
