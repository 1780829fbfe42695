import { HttpError } from './http-error.js';

/** 415: the request body has a content type the endpoint does not accept. */
export class UnsupportedMediaTypeError extends HttpError {
  override name = 'UnsupportedMediaTypeError';
  override readonly code = 'UNSUPPORTED_MEDIA_TYPE';
}
