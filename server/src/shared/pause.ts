/** Waits `ms`, or less when `signal` aborts first (browsers too: the MSW mock's fault rules pause with it). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    if (signal?.aborted) done();
    else signal?.addEventListener('abort', done, { once: true });
  });
}
