import type { OAuthErrorBody } from '../contract/index.js';
import { HttpError, type HttpErrorInit } from './http-error.js';

/**
 * The token endpoint refused a request (RFC 6749 §5.2): `error` is the OAuth code (`invalid_grant`,
 * `invalid_client`, …) and `errorDescription` the server's explanation.
 */
export class OAuthError extends HttpError {
  override name = 'OAuthError';
  declare readonly code: 'OAUTH_ERROR';
  declare readonly error: OAuthErrorBody['error'];
  declare readonly errorDescription: string | undefined;

  constructor(init: HttpErrorInit) {
    super(init, 'OAUTH_ERROR');
    const body = (init.body ?? {}) as Partial<OAuthErrorBody>;
    this.error = typeof body.error === 'string' ? body.error : 'invalid_request';
    this.errorDescription = typeof body.error_description === 'string' ? body.error_description : undefined;
  }
}
