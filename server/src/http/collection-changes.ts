/**
 * When a core saw collections change: what dates a list, whose representation changes with every addition, deletion
 * or member leaving its filter, not only with the newest `updated_on` among the rows it holds. The store keeps no
 * time of its changes, only revision counters, so the core notes the time at which it first sees each collection at
 * a new revision. That is no earlier than the change, so a date built on it never claims a list unchanged since a
 * date that preceded a change; and every representation this core sends is built after such a look, so two
 * versions it sent within one second always show as two changes in that second.
 *
 * A collection at revision 0 is as the store was loaded: its rows' own dates stand for its changes.
 */
import type { Clock } from '../core/types.js';
import { toSeconds } from './http-date.js';

/** A collection's name and the store's revision of it now. */
export type CollectionRevision = readonly [collection: string, revision: number];

/** The latest change among some collections, as the core knows it. */
export interface LatestChange {
  /** Epoch ms when it was seen; 0 when none was. */
  at: number;
  /** Another change was seen within the second of `at`: a date of that second cannot tell the versions apart. */
  twice: boolean;
}

interface Seen {
  revision: number;
  /** When this revision was first seen (epoch ms; 0: as loaded). */
  at: number;
  /** When the revision before it was. */
  before: number;
}

export class CollectionChanges {
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly clock: Clock) {}

  /** The latest change among `collections`, noting the revisions not seen before as changed now. */
  latest(collections: readonly CollectionRevision[]): LatestChange {
    const instants: number[] = [];
    for (const [collection, revision] of collections) {
      let seen = this.seen.get(collection);
      if (seen?.revision !== revision) {
        const at = revision === 0 && !seen ? 0 : this.clock.now();
        seen = { revision, at, before: seen?.at ?? 0 };
        this.seen.set(collection, seen);
      }
      instants.push(seen.at, seen.before);
    }
    const at = Math.max(0, ...instants);
    const second = toSeconds(at);
    // Distinct instants: one look that saw several collections move counts once.
    const inSecond = new Set(instants.filter((instant) => instant > 0 && toSeconds(instant) === second));
    return { at, twice: inSecond.size > 1 };
  }
}
