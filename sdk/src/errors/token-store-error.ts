import { StorefrontError } from './storefront-error.js';

/** A shared token store (e.g. Redis) could not be reached or answered wrongly; the original failure is `cause`. */
export class TokenStoreError extends StorefrontError {
  override name = 'TokenStoreError';
  declare readonly code: 'TOKEN_STORE';

  constructor(message: string, options?: { cause?: unknown }) {
    super('TOKEN_STORE', message, options);
  }
}
