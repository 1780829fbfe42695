/** How many files a bulk operation keeps open at once: far below the 256 descriptors a macOS shell allows. */
const FILES_AT_ONCE = 32;

/**
 * `Promise.all(items.map(fn))` with at most `limit` calls running at a time; results in the order of `items`. On a
 * failure no further call starts, and it rejects once the running ones are over: a file write still in flight
 * after its write was reported failed could land after a retry, or after the next start's recovery.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  fn: (item: T) => Promise<R>,
  limit = FILES_AT_ONCE,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const at = next++;
      try {
        results[at] = await fn(items[at]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}
