/**
 * How every log line names a request: its method and target with secrets redacted (`access_token`, `code`,
 * `password`… in any case, `&`- or `;`-separated), since JSONP requests carry their token in the query. The one
 * way the server writes a request into its log: the request log, the 503 lines, the disk-failure lines.
 */
import { redactUrl } from '@storefront-platform/sdk/internal';

/** `GET /v1/shops.json?access_token=[REDACTED]`: `target` is the request target as sent, or the parsed URL. */
export function requestLine(method: string, target: string | URL): string {
  const text = typeof target === 'string' ? target : `${target.pathname}${target.search}`;
  return `${method} ${redactUrl(text)}`;
}
