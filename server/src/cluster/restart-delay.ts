/**
 * How long the primary waits before it starts a worker in place of one that exited unasked. A worker that had
 * served (see `LISTENING`) is replaced at once: a crash or a `kill -9` of a running worker says nothing about the
 * next one. A replacement that exits before it serves failed to start (a database refusing connections, a schema
 * from a newer server, data it cannot load), and so would the next one for now: the waits double from half a
 * second up to 30 seconds, so that a fleet that cannot start spends its CPU on nothing but a try every 30 seconds,
 * and is back within those 30 seconds once the cause is gone. The count starts again once a worker serves.
 */

/** The wait after the first start that failed, in milliseconds. */
export const FIRST_RETRY_MS = 500;
/** The longest wait between two starts, in milliseconds. */
export const MAX_RETRY_MS = 30_000;

/** The wait before the next start after `failedStarts` starts in a row that failed (0: a worker that had served). */
export function restartDelay(failedStarts: number): number {
  if (failedStarts <= 0) return 0;
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (failedStarts - 1));
}
