/**
 * A queue of one: each function given starts once the one before it settled, in the order given, whatever the
 * earlier ones resolved with or threw. The store's write queue, the PostgreSQL store's catch-ups and each durable
 * JSON file's writes run through one each.
 */
export type Serial = <T>(fn: () => T | Promise<T>) => Promise<T>;

export function serial(): Serial {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const run = tail.then(fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
