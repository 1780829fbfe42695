/** Row fields computed when first read, for the parts of the seed that cost more than they are used. */

/** `compute`, run once, on the first call. */
export function memo<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

/**
 * `row` with each of `fields` as an enumerable getter that computes its value once. To every reader (property
 * access, spread, `JSON.stringify`, `structuredClone`) the row looks like a plain one with those fields, and an
 * assignment replaces the getter with the value, as on a plain object.
 */
export function lazyFields<R extends object, F extends Record<string, unknown>>(
  row: R,
  fields: { [K in keyof F]: () => F[K] },
): R & F {
  for (const [name, compute] of Object.entries(fields)) {
    Object.defineProperty(row, name, {
      enumerable: true,
      configurable: true,
      get: memo(compute as () => unknown),
      set(value: unknown) {
        Object.defineProperty(this, name, { value, enumerable: true, configurable: true, writable: true });
      },
    });
  }
  return row as R & F;
}
