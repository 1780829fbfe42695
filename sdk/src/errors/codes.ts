/**
 * Stable, machine-readable codes carried by every {@link StorefrontError}. Match on `error.code` rather than on
 * messages: codes never change within a major version.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PRECONDITION_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'VALIDATION_FAILED'
  | 'HTTP_ERROR'
  | 'SERVER_ERROR'
  | 'NETWORK_ERROR'
  | 'TIMEOUT'
  | 'INVALID_RESPONSE'
  | 'RESPONSE_TOO_LARGE'
  | 'OAUTH_ERROR'
  | 'AUTHORIZATION_LOST'
  | 'UNKNOWN_RELATION'
  | 'TEMPLATE_VARIABLE'
  | 'TOKEN_STORE';
