import type { CoreResponse } from '../core/types.js';

/**
 * Headers of the authorization pages: never cached (they carry one request's parameters), never framed
 * (clickjacking of the approve button), no scripts at all. `form-action` is left out on purpose: browsers
 * apply it to the redirect that follows the form, which goes to the client.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

export function htmlResponse(status: number, body: string, headers: Record<string, string> = {}): CoreResponse {
  return { status, headers: { ...PAGE_HEADERS, ...headers }, body };
}
