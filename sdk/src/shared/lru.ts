/** Bounds of an {@link Lru}. */
export interface LruOptions<K, V> {
  /** Most entries kept. */
  maxEntries: number;
  /** Most total weight kept, as measured by `weigh`; unbounded when absent. */
  maxWeight?: number;
  /** The weight of one entry (e.g. its size in bytes); 0 when absent. */
  weigh?: (key: K, value: V) => number;
}

/**
 * A map bounded by entries and by total weight that drops the least recently used entries first. `get` counts
 * as a use; `peek` does not.
 */
export class Lru<K, V> {
  readonly #maxEntries: number;
  readonly #maxWeight: number;
  readonly #weigh: ((key: K, value: V) => number) | undefined;
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  readonly #entries = new Map<K, { value: V; weight: number }>();
  #weight = 0;

  constructor({ maxEntries, maxWeight = Number.POSITIVE_INFINITY, weigh }: LruOptions<K, V>) {
    this.#maxEntries = maxEntries;
    this.#maxWeight = maxWeight;
    this.#weigh = weigh;
  }

  /** Entries held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Total weight held. */
  get weight(): number {
    return this.#weight;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** The value of `key`, without counting it as a use. */
  peek(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** The value of `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const held = this.#entries.get(key);
    if (held === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, held);
    return held.value;
  }

  /**
   * Stores `value` as the most recently used and returns the entries dropped to make room. A value that alone
   * outweighs `maxWeight` is not kept (and drops nothing but an older value of `key`).
   */
  set(key: K, value: V): [K, V][] {
    this.delete(key);
    const weight = this.#weigh?.(key, value) ?? 0;
    if (weight > this.#maxWeight) return [];
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    const evicted: [K, V][] = [];
    for (const [oldest, held] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#weight <= this.#maxWeight) break;
      this.delete(oldest);
      evicted.push([oldest, held.value]);
    }
    return evicted;
  }

  /** Removes `key`; returns the value it held. */
  delete(key: K): V | undefined {
    const held = this.#entries.get(key);
    if (held === undefined) return undefined;
    this.#entries.delete(key);
    this.#weight -= held.weight;
    return held.value;
  }
}
