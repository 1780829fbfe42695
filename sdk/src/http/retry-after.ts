/** Headers ky reads, in this order, for the server's wish of when to retry: the client reads them as ky does. */
const RETRY_AFTER_HEADERS = [
  'Retry-After',
  'RateLimit-Reset',
  'X-RateLimit-Retry-After',
  'X-RateLimit-Reset',
  'X-Rate-Limit-Reset',
];

/**
 * The wait in ms that a response asks for before its request is sent again, read as the client reads it for its
 * own retries: from `Retry-After`, else from the first rate limit header present (`RateLimit-Reset`,
 * `X-RateLimit-Retry-After`, `X-RateLimit-Reset`, `X-Rate-Limit-Reset`). A value is delay-seconds or an HTTP date
 * (RFC 9110 §10.2.3), a date already past being 0; so many seconds that, read as milliseconds, they pass
 * 2024-01-01 are an epoch time in seconds (GitHub's `X-RateLimit-Reset`), as ky reads them.
 *
 * `headers`: a response's, or `new Headers(error.headers)` for an `HttpError`. `max`: the longest wait returned, ms
 * (the client caps its own by `retry.maxRetryAfter`, 30 s by default). `now`: epoch ms now.
 * Returns `undefined` when none of those headers is present, or when the first present is neither form (`1.5`,
 * `-3`, `2026-11-21`): the client then backs off as if the server had not said.
 *
 * @example
 * ```ts
 * try {
 *   await client.root();
 * } catch (error) {
 *   // A 429 or 503 the client's retries did not outlast: when to try again, if the server said.
 *   const wait = error instanceof HttpError ? readRetryAfter(new Headers(error.headers)) : undefined;
 * }
 * ```
 */
export function readRetryAfter(headers: Pick<Headers, 'get'>, max = Infinity, now = Date.now()): number | undefined {
  const value = RETRY_AFTER_HEADERS.map((name) => headers.get(name)).find((found) => found !== null);
  // delay-seconds is digits alone, and RFC 9110's three forms of a date open with the day's name: what else Number
  // or Date.parse would read ("1.5", which Date.parse takes for a day in 2001) is neither.
  if (!value || !/^(\d+$|[a-z]{3})/i.test(value)) return undefined;
  let after = Number(value) * 1000;
  if (Number.isNaN(after)) after = Date.parse(value) - now;
  else if (after >= Date.parse('2024-01-01')) after -= now;
  // Not finite: an unreadable date, or "Infinity".
  return Number.isFinite(after) ? Math.max(0, Math.min(after, max)) : undefined;
}
