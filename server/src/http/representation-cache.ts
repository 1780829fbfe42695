/**
 * Serialise and hash a representation once per change, not once per request. Entries are keyed by the
 * resource and the viewer variant, and stamped with the store revisions of the collections they were
 * built from: a changed revision rebuilds the entry on next use.
 */

import { Lru } from '@storefront-platform/sdk/internal';
import type { Clock } from '../core/types.js';
import { CollectionChanges } from './collection-changes.js';
import type { Entity } from './entity.js';
import { toSeconds } from './http-date.js';

/** Store revisions of the collections a value was derived from, in a fixed order per key. */
export type Revisions = readonly number[];

interface Slot<T> {
  revisions: Revisions;
  value: T;
}

function same(a: Revisions, b: Revisions): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A bounded map of derived values stamped with their revisions, least recently used out first. */
class Memo<T> {
  private readonly slots: Lru<string, Slot<T>>;

  constructor(capacity: number) {
    this.slots = new Lru({ maxEntries: capacity });
  }

  get(key: string, revisions: Revisions): Slot<T> | undefined {
    const slot = this.slots.get(key);
    return slot && same(slot.revisions, revisions) ? slot : undefined;
  }

  /** The last value stored under `key`, whatever its revisions. */
  previous(key: string): T | undefined {
    return this.slots.peek(key)?.value;
  }

  set(key: string, revisions: Revisions, value: T): void {
    this.slots.set(key, { revisions: [...revisions], value });
  }
}

/**
 * A changed representation's validators. `Last-Modified` must move past the previous one even when the change
 * left no newer timestamp in the data (a deleted member of a collection), yet never past now, the `Date` of the
 * response (RFC 9110 §8.8.2.1). When it cannot move, that second saw two versions: its date becomes weak.
 */
function successor(before: Entity, entity: Entity, now: number): Entity {
  if (entity.lastModified > before.lastModified) return entity;
  const lastModified = Math.max(before.lastModified, toSeconds(now));
  return lastModified === before.lastModified
    ? { ...entity, lastModified, weakLastModified: true }
    : { ...entity, lastModified };
}

/**
 * What the caches of several cores over one data set share: entries built while their collections were still as
 * the data set has them (revision 0 in a store made from it). MSW's mocks start every test from the same data,
 * so each builds the representations of the untouched data once per process instead of once per mock.
 */
export class PristineRepresentations {
  readonly entities = new Memo<Entity>(2000);
  readonly values = new Memo<unknown>(100);
}

/** Built from data as the data set has it; an entry of no collection (a relation page) is dated by its core's clock. */
const untouched = (revisions: Revisions) => revisions.length > 0 && revisions.every((revision) => revision === 0);

/** One per core: the representations and derived data (filtered id lists) of the running server. */
export class RepresentationCache {
  private readonly entities: Memo<Entity>;
  private readonly values: Memo<unknown>;
  /** When this core saw the store's collections change: what dates lists (`api/results.ts`). */
  readonly changes: CollectionChanges;

  /**
   * Bounds keep memory in check whatever clients ask for: a representation is tens of KiB, while a derived
   * list may hold a reference per product of a large store (800 KiB for 100 000 products).
   */
  constructor(
    private readonly clock: Clock,
    { entities = 2000, values = 100 }: { entities?: number; values?: number } = {},
    /** Shared with the other cores over the same data set and addresses, when the store starts from one. */
    private readonly pristine?: PristineRepresentations,
  ) {
    this.entities = new Memo(entities);
    this.values = new Memo(values);
    this.changes = new CollectionChanges(clock);
  }

  /** What the other cores over the same data set share, for an entry of `revisions`; none once data changed. */
  private shared(revisions: Revisions): PristineRepresentations | undefined {
    return this.pristine && untouched(revisions) ? this.pristine : undefined;
  }

  /**
   * The entity under `key` as of `revisions`, built by `build` when missing or stale; a rebuild with the same
   * bytes keeps the previous entity and its validators.
   */
  cached(key: string, revisions: Revisions, build: () => Entity): Entity {
    const hit = this.entities.get(key, revisions);
    if (hit) return hit.value;
    const shared = this.shared(revisions)?.entities;
    let entity = shared?.get(key, revisions)?.value;
    if (!entity) {
      entity = build();
      const before = this.entities.previous(key);
      if (before) entity = before.etag === entity.etag ? before : successor(before, entity, this.clock.now());
      else shared?.set(key, revisions, entity);
    }
    this.entities.set(key, revisions, entity);
    return entity;
  }

  /** Any derived value (e.g. a filtered, sorted id list) under `key` as of `revisions`. */
  memo<T>(key: string, revisions: Revisions, compute: () => T): T {
    const shared = this.shared(revisions)?.values;
    const hit = this.values.get(key, revisions) ?? shared?.get(key, revisions);
    if (hit) return hit.value as T;
    const value = compute();
    this.values.set(key, revisions, value);
    shared?.set(key, revisions, value);
    return value;
  }
}
