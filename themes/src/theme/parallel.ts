/** How many writes run at once: enough to hide round trips, few enough not to crowd a server that writes in turn. */
export const CONCURRENCY = 4;

/**
 * Runs `task` over `items`, at most `limit` at a time, in order of start. A rejection stops further starts and
 * is thrown once the tasks already running have settled, so that what they did is recorded before it surfaces.
 */
export async function parallel<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
