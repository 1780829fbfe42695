/** Error codes of RFC 6749 §4.1.2.1, §4.2.2.1 and §5.2 that the authorization service sends. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type';

/**
 * A refusal of the authorization service, carrying the RFC 6749 `error` code and a human-readable
 * `error_description`. The endpoints turn it into a JSON error (token endpoint) or a redirect (authorize).
 */
export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
  ) {
    super(`${code}: ${description}`);
    this.name = 'OAuthError';
  }

  /** RFC 6749 §5.2: 400 for every error but a failed client authentication, which is 401. */
  get status(): 400 | 401 {
    return this.code === 'invalid_client' ? 401 : 400;
  }
}
