import { HttpError, type HttpErrorInit } from './http-error.js';

/** 412: an `If-Match` precondition failed, i.e. the resource changed since the copy the write was based on. */
export class PreconditionFailedError extends HttpError {
  override name = 'PreconditionFailedError';
  declare readonly code: 'PRECONDITION_FAILED';

  constructor(init: HttpErrorInit) {
    super(init, 'PRECONDITION_FAILED');
  }
}
