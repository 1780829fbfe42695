/**
 * `promise`, or a rejection with the signal's reason as soon as `signal` aborts. The work behind `promise` goes on:
 * a token request shared by many callers must not be cancelled because one of them gave up.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // Handled here even once nobody awaits it, so that its own failure never surfaces as an unhandled rejection.
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    // An abort before the call fires no event.
    if (signal.aborted) onAbort();
  });
}
