import { Lru } from '../shared/lru.js';

/**
 * The in-memory index from invalidation tags to cache keys (see `invalidation-tags.ts`). It is bounded: past
 * `maxKeys` the least recently used key leaves the index, and the caller deletes that entry from the store too,
 * so that the store never holds an entry a write could no longer find.
 */
export class TagIndex {
  /** Key → its tags and the validator of the representation they were read from, least recently used first. */
  readonly #keys: Lru<string, { tags: readonly string[]; version: string | undefined }>;
  readonly #keysByTag = new Map<string, Set<string>>();

  constructor(maxKeys: number) {
    this.#keys = new Lru({ maxEntries: maxKeys });
  }

  has(key: string): boolean {
    return this.#keys.has(key);
  }

  /** The `version` given when `key` was indexed, if it still is. */
  version(key: string): string | undefined {
    return this.#keys.peek(key)?.version;
  }

  /** Marks `key` as just used. */
  touch(key: string): void {
    this.#keys.get(key);
  }

  /**
   * Indexes `key` under `tags`, read from the representation `version` (a strong validator) when there is one;
   * returns the keys pushed out of the index to make room.
   */
  add(key: string, tags: readonly string[], version?: string): string[] {
    this.remove(key);
    for (const tag of tags) {
      const keys = this.#keysByTag.get(tag);
      if (keys === undefined) this.#keysByTag.set(tag, new Set([key]));
      else keys.add(key);
    }
    return this.#keys.set(key, { tags, version }).map(([evicted, held]) => {
      this.#unindex(evicted, held.tags);
      return evicted;
    });
  }

  /** Removes and returns every key indexed under any of `tags`. */
  take(tags: Iterable<string>): string[] {
    const taken = new Set<string>();
    for (const tag of tags) for (const key of this.#keysByTag.get(tag) ?? []) taken.add(key);
    for (const key of taken) this.remove(key);
    return [...taken];
  }

  remove(key: string): void {
    const held = this.#keys.delete(key);
    if (held !== undefined) this.#unindex(key, held.tags);
  }

  #unindex(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.#keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#keysByTag.delete(tag);
    }
  }
}
