/**
 * What the import says when the source asks it to wait (a 429 or 503 with `Retry-After`). The SDK waits at most
 * 30 s per retry and says nothing: without a line, a log stays silent for a minute and then reads "failed with
 * 429". So a long wait is said as it starts, and a failure says when the source wants to be tried again.
 */
import { type ClientEvents, HttpError, readRetryAfter } from '@storefront-platform/sdk';

/** Waits shorter than this are the ordinary back-off, not worth a line. */
const LONG_WAIT_MS = 5_000;

/** The wait the source's answer asked for, in ms, uncapped; `undefined` when it did not say. */
function askedWait(error: unknown, now: number): number | undefined {
  return error instanceof HttpError ? readRetryAfter(new Headers(error.headers), Infinity, now) : undefined;
}

/** `ms` for a person: seconds, minutes or hours, rounded up. */
export function waitText(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.ceil(seconds / 3600)} h`;
}

/** One line for a retry the SDK is about to wait `delay` for, when that is long; `undefined` otherwise. */
export function retryWaitLine(event: ClientEvents['retry'], now = Date.now()): string | undefined {
  if (event.delay < LONG_WAIT_MS) return undefined;
  const asked = askedWait(event.error, now);
  const status = event.error instanceof HttpError ? ` answered ${event.error.status}` : '';
  const more = asked !== undefined && asked > event.delay ? ` (it asked for ${waitText(asked)})` : '';
  return `${event.method} ${event.url}${status}: waiting ${waitText(event.delay)} before retrying${more}`;
}

/** What to add to a failure's line when the source's last answer said when to try again; '' otherwise. */
export function tryAgainHint(error: unknown, now = Date.now()): string {
  const asked = askedWait(error, now);
  if (!asked) return '';
  return `; the source asks to be tried again in ${waitText(asked)} (after ${new Date(now + asked).toISOString()})`;
}
