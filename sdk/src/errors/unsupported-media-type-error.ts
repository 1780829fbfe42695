import { HttpError, type HttpErrorInit } from './http-error.js';

/** 415: the request body has a content type the endpoint does not accept. */
export class UnsupportedMediaTypeError extends HttpError {
  override name = 'UnsupportedMediaTypeError';
  declare readonly code: 'UNSUPPORTED_MEDIA_TYPE';

  constructor(init: HttpErrorInit) {
    super(init, 'UNSUPPORTED_MEDIA_TYPE');
  }
}
