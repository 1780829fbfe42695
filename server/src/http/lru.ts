/** A small least-recently-used map: what the core remembers per key (representations, verified tokens). */

/** A map of at most `capacity` entries: reading an entry makes it the newest; past capacity the oldest goes. */
export class Lru<V> {
  /** Map iteration order is insertion order: re-inserting on use keeps the least recently used first. */
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  /** The entry under `key`, now the most recently used. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** The entry under `key`, leaving the order as it is. */
  peek(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
