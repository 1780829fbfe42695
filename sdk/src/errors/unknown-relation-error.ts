import { StorefrontError } from './storefront-error.js';

/** `follow`/`link` asked for a relation the resource does not have (right now: links depend on permissions). */
export class UnknownRelationError extends StorefrontError {
  override name = 'UnknownRelationError';
  declare readonly code: 'UNKNOWN_RELATION';
  /** The name asked for. */
  declare readonly relation: string;
  /** Relations the resource does have, as they appear in its `_links`. */
  declare readonly available: readonly string[];

  constructor(relation: string, available: readonly string[], where?: string) {
    const list = available.length ? available.join(', ') : 'none';
    super('UNKNOWN_RELATION', `No relation "${relation}"${where ? ` on ${where}` : ''}; available: ${list}`);
    this.relation = relation;
    this.available = available;
  }
}
