import type { OAuthErrorCode } from '@storefront-platform/sdk/internal';

/**
 * A refusal of the authorization service, carrying the RFC 6749 `error` code and a human-readable
 * `error_description`. The endpoints turn it into a JSON error (token endpoint) or a redirect (authorize).
 */
export class OAuthError extends Error {
  /**
   * RFC 6749 §5.2: 400 for every error but a failed client authentication (401), unless told otherwise (413,
   * 415, 429).
   */
  readonly status: number;

  constructor(
    readonly code: Exclude<OAuthErrorCode, 'server_error'>,
    readonly description: string,
    status?: number,
    /** Extra response headers, e.g. `retry-after` on a 429. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(`${code}: ${description}`);
    this.name = 'OAuthError';
    this.status = status ?? (code === 'invalid_client' ? 401 : 400);
  }
}

/** Client input quoted in a description, cut short so that a huge parameter does not make a huge error. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
