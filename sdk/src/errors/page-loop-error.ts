import { redactUrl } from './redact.js';
import { StorefrontError } from './storefront-error.js';

/**
 * A walk over a list's pages (`pages()`, `items()`, `take()`) met a `next` link to a page it had already read: a
 * server whose links loop would keep the walk going forever, yielding the same items again.
 */
export class PageLoopError extends StorefrontError {
  override name = 'PageLoopError';
  declare readonly code: 'PAGE_LOOP';
  /** The `next` URL seen before, credentials redacted. */
  declare readonly url: string;

  constructor(url: string) {
    const redacted = redactUrl(url);
    super('PAGE_LOOP', `The list's next link leads back to a page already read: ${redacted}`);
    this.url = redacted;
  }
}
