/**
 * The in-memory index from invalidation tags to cache keys (see `invalidation-tags.ts`). It is bounded: past
 * `maxKeys` the least recently used key leaves the index, and the caller deletes that entry from the store too,
 * so that the store never holds an entry a write could no longer find.
 */
export class TagIndex {
  readonly #maxKeys: number;
  /** Key → its tags, least recently used first. */
  readonly #tagsByKey = new Map<string, readonly string[]>();
  /** Key → the validator of the representation its tags were read from. */
  readonly #versions = new Map<string, string>();
  readonly #keysByTag = new Map<string, Set<string>>();

  constructor(maxKeys: number) {
    this.#maxKeys = maxKeys;
  }

  has(key: string): boolean {
    return this.#tagsByKey.has(key);
  }

  /** The `version` given when `key` was indexed, if it still is. */
  version(key: string): string | undefined {
    return this.#versions.get(key);
  }

  /** Marks `key` as just used. */
  touch(key: string): void {
    const tags = this.#tagsByKey.get(key);
    if (tags === undefined) return;
    this.#tagsByKey.delete(key);
    this.#tagsByKey.set(key, tags);
  }

  /**
   * Indexes `key` under `tags`, read from the representation `version` (a strong validator) when there is one;
   * returns the keys pushed out of the index to make room.
   */
  add(key: string, tags: readonly string[], version?: string): string[] {
    this.remove(key);
    this.#tagsByKey.set(key, tags);
    if (version !== undefined) this.#versions.set(key, version);
    for (const tag of tags) {
      const keys = this.#keysByTag.get(tag);
      if (keys === undefined) this.#keysByTag.set(tag, new Set([key]));
      else keys.add(key);
    }
    const evicted: string[] = [];
    for (const oldest of this.#tagsByKey.keys()) {
      if (this.#tagsByKey.size <= this.#maxKeys) break;
      this.remove(oldest);
      evicted.push(oldest);
    }
    return evicted;
  }

  /** Removes and returns every key indexed under any of `tags`. */
  take(tags: Iterable<string>): string[] {
    const taken = new Set<string>();
    for (const tag of tags) for (const key of this.#keysByTag.get(tag) ?? []) taken.add(key);
    for (const key of taken) this.remove(key);
    return [...taken];
  }

  remove(key: string): void {
    const tags = this.#tagsByKey.get(key);
    if (tags === undefined) return;
    this.#tagsByKey.delete(key);
    this.#versions.delete(key);
    for (const tag of tags) {
      const keys = this.#keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#keysByTag.delete(tag);
    }
  }
}
