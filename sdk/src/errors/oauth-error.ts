import type { OAuthErrorBody } from '../contract/index.js';
import { HttpError, type HttpErrorInit } from './http-error.js';

/**
 * The token endpoint refused a request (RFC 6749 §5.2): `error` is the OAuth code (`invalid_grant`,
 * `invalid_client`, …) and `errorDescription` the server's explanation.
 */
export class OAuthError extends HttpError {
  override name = 'OAuthError';
  /** Stable machine-readable code: `OAUTH_ERROR`, or `AUTHORIZATION_LOST` for an `AuthorizationLostError`. */
  declare readonly code: 'OAUTH_ERROR' | 'AUTHORIZATION_LOST';
  declare readonly error: OAuthErrorBody['error'];
  declare readonly errorDescription: string | undefined;

  constructor(init: HttpErrorInit, code: 'OAUTH_ERROR' | 'AUTHORIZATION_LOST' = 'OAUTH_ERROR') {
    super(init, code);
    const body = (init.body ?? {}) as Partial<OAuthErrorBody>;
    this.error = typeof body.error === 'string' ? body.error : 'invalid_request';
    this.errorDescription = typeof body.error_description === 'string' ? body.error_description : undefined;
  }
}
