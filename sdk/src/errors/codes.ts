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
  | 'PAGE_LOOP'
  | 'TEMPLATE_VARIABLE'
  | 'TOKEN_STORE'
  | WebhookErrorCode;

/**
 * Codes of a `WebhookVerificationError` (`@storefront-platform/sdk/webhooks`): why a delivery was refused.
 * `WEBHOOK_HEADERS`: a `webhook-id`, `webhook-timestamp` or `webhook-signature` header is missing;
 * `WEBHOOK_TIMESTAMP`: the timestamp is no number or outside the tolerance; `WEBHOOK_SIGNATURE`: no signature
 * matches; `WEBHOOK_BODY`: the body given is not the raw one (an object, or text re-serialised from one).
 */
export type WebhookErrorCode = 'WEBHOOK_HEADERS' | 'WEBHOOK_TIMESTAMP' | 'WEBHOOK_SIGNATURE' | 'WEBHOOK_BODY';
