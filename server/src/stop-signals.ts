/**
 * How `storefront-server` is stopped: SIGINT or SIGTERM, once. Ctrl-C in a terminal signals the whole process
 * group: under `npm start` the server gets SIGINT from the terminal and again from npm, which forwards it to its
 * script, and a fleet's workers get it beside their primary. So a signal while stopping is the same stop asked
 * again, not an order to give up: the stop runs to its end (bounded by the server's own timeouts), says so once and
 * leaves no lock. A process that must go at once is killed (SIGKILL); its lock is taken over at the next start.
 */

/** Calls `stop` on the first of `signals`; later ones are taken as the same stop. */
export function onStopSignal(
  stop: (signal: NodeJS.Signals) => void,
  signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'],
): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    stop(signal);
  };
  // Kept for the process's life: a signal without a handler would kill it halfway through the stop.
  for (const signal of signals) process.on(signal, handle);
}

/**
 * A fleet's worker: the primary stops it (SIGTERM), after the terminal's SIGINT reached them both. Ignored here,
 * that SIGINT neither kills the worker (its default) nor starts a second stop beside the primary's.
 */
export function ignoreTerminalInterrupt(): void {
  process.on('SIGINT', () => undefined);
}
