/**
 * When a failed attempt is tried again: the Standard Webhooks schedule (after the first attempt: 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h), each delay stretched by up to a tenth at random so that the retries of many
 * events failing together do not arrive together; a `Retry-After` later than that is waited for.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delays before attempts 2, 3, … (the first is immediate). */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];
/** Attempts of one event to one endpoint, the first included. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An endpoint whose attempts have all failed for this long is disabled (events.md). */
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;
/** The longest `Retry-After` honoured: past it the schedule's own delay stands. */
const MAX_RETRY_AFTER_MS = 24 * HOUR;

/** The delay before the attempt after `attempt` (1-based), or `undefined` when it was the last. */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  random = Math.random,
): number | undefined {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return undefined;
  const delay = Math.round(base * (1 + random() / 10));
  return retryAfterMs !== undefined && retryAfterMs <= MAX_RETRY_AFTER_MS ? Math.max(delay, retryAfterMs) : delay;
}

/** A `Retry-After` value (seconds or an HTTP date) as a delay from `now`, ms; `undefined` when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
