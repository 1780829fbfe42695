/** How many files a bulk operation keeps open at once: far below the 256 descriptors a macOS shell allows. */
const FILES_AT_ONCE = 32;

/** `Promise.all(items.map(fn))` with at most `limit` calls running at a time; results in the order of `items`. */
export async function mapLimited<T, R>(
  items: readonly T[],
  fn: (item: T) => Promise<R>,
  limit = FILES_AT_ONCE,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await fn(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
