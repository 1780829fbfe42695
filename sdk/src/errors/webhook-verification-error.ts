import type { WebhookErrorCode } from './codes.js';
import { StorefrontError } from './storefront-error.js';

/**
 * A webhook delivery that `verifyWebhook` refused; `code` says why (see {@link WebhookErrorCode}). Its message
 * never holds a secret or a signature. Exported by `@storefront-platform/sdk/webhooks`.
 */
export class WebhookVerificationError extends StorefrontError {
  override name = 'WebhookVerificationError';
  declare readonly code: WebhookErrorCode;

  constructor(code: WebhookErrorCode, message: string) {
    super(code, message);
  }
}
