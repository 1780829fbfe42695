/** HTTP dates (RFC 9110 §5.6.7) at the one-second granularity they carry. */

/** IMF-fixdate, then the obsolete RFC 850 and asctime forms a recipient must still accept. */
const HTTP_DATE = [
  /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]{5,8}, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * The two seconds formatted last: a response formats its `Date` (now) and its `Last-Modified` (the entity's),
 * and formatting costs more than the rest of a cached read's headers.
 */
const formatted: [number, string][] = [
  [Number.NaN, ''],
  [Number.NaN, ''],
];
let replace = 0;

/** `Sun, 06 Nov 1994 08:49:37 GMT` from epoch ms. */
export function formatHttpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  for (const [cached, text] of formatted) if (cached === second) return text;
  const text = new Date(second * 1000).toUTCString();
  formatted[replace] = [second, text];
  replace ^= 1;
  return text;
}

/**
 * Epoch ms of an HTTP date, or `undefined` when the value is not one (the recipient then ignores the
 * header, RFC 9110 §13.1.3).
 */
export function parseHttpDate(value: string): number | undefined {
  if (!HTTP_DATE.some((form) => form.test(value))) return undefined;
  // asctime carries no zone; Date.parse would read it as local time.
  const ms = Date.parse(value.endsWith('GMT') ? value : `${value} GMT`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Truncates epoch ms to whole seconds, the precision of `Last-Modified`. */
export function toSeconds(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}
