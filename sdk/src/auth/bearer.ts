import { tokenOwner } from './owner.js';
import type { AuthStrategy } from './types.js';

/** Options of {@link bearer}. */
export interface BearerOptions {
  /** Cache partition of this token's requests; default: derived from a digest of the token. */
  owner?: string;
}

/** Sends a fixed access token. It cannot be refreshed: a 401 surfaces as an `UnauthorizedError`. */
export function bearer(token: string, options: BearerOptions = {}): AuthStrategy {
  if (token === '') throw new TypeError('bearer: the token is empty');
  const owner = options.owner ?? tokenOwner('bearer', token);
  return {
    async credentials() {
      return { token, owner: await owner };
    },
  };
}
