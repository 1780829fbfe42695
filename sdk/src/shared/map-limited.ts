/**
 * `Promise.all(items.map(fn))` with at most `limit` calls running at a time; results in the order of `items`. On a
 * failure no further call starts, and it rejects once the running ones are over, so that what they did is done
 * (a file written, a change recorded) before the failure surfaces: a write still in flight after its failure was
 * reported could land after a retry. The server's store and the themes CLI bound their files and requests with it.
 *
 * @example
 * // Upload templates four at a time: a failure stops the rest, after the uploads under way settled.
 * await mapLimited(files, 4, (file) => theme.follow('svc:create_template', file));
 */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
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
