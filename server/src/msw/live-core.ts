/**
 * The mock's current store and core, replaced as a whole by `reset()`, and a {@link Store} that always reads
 * and writes the current one, so that a test may keep the `store` it got before a reset.
 */
import { type Core, createSharingCore } from '../core/index.js';
import type { Addresses, Clock } from '../core/types.js';
import { PristineRepresentations } from '../http/representation-cache.js';
import { createMemoryStore } from '../store/memory.js';
import type { Dataset, Store } from '../store/types.js';

/** The core and store the handlers currently serve. */
export interface LiveCore {
  readonly core: Core;
  readonly store: Store;
  /** Starts over from a fresh copy of the initial data, with a fresh core (no cached representations). */
  reset(): void;
}

/** What the core is built from, besides the data. */
export interface CoreSettings {
  addresses: Addresses;
  clock: Clock;
  tokenTtl: number;
}

/**
 * The live core over `initial`, a data set nobody changes; its rows are checked (unique ids) now unless
 * `checked` says they need not be. No start copies it: a store replaces rows on change and never mutates them
 * (nor the arrays given), so `initial` stays pristine, and each `reset()` starts over from it with a new store
 * whose tables are built as the next test uses them.
 */
export function liveCore(initial: Dataset, settings: CoreSettings, checked: boolean): LiveCore {
  const pristine = pristineOf(initial, settings.addresses.origin);
  // Tables are built as a test uses them once the data is known good (the seed's, or checked by the first start).
  const build = (data: Dataset, lazyTables: boolean) => {
    const store = createMemoryStore(data, { lazyTables });
    // A new core too: its representation cache is keyed by store revisions, which start over with the store.
    return { store, core: createSharingCore({ store, ...settings }, pristine) };
  };
  let current = build(initial, checked);
  return {
    get core() {
      return current.core;
    },
    get store() {
      return current.store;
    },
    reset() {
      current = build(initial, true);
    },
  };
}

/**
 * The representations of `initial` at `origin`, shared by every mock of the process over that data set (the
 * seeded one is shared too: see `initialData`). On `globalThis` for the same reason as the seeded data.
 */
const PRISTINE = Symbol.for('storefront-server/msw: pristine representations');
const shared = globalThis as { [PRISTINE]?: WeakMap<Dataset, Map<string, PristineRepresentations>> };

function pristineOf(initial: Dataset, origin: string): PristineRepresentations {
  shared[PRISTINE] ??= new WeakMap();
  const byOrigin = shared[PRISTINE].get(initial) ?? new Map<string, PristineRepresentations>();
  shared[PRISTINE].set(initial, byOrigin);
  const pristine = byOrigin.get(origin) ?? new PristineRepresentations();
  byOrigin.set(origin, pristine);
  return pristine;
}

/** A store that forwards every call to the live one. */
export function forwardingStore(live: LiveCore): Store {
  return {
    get: (collection, id) => live.store.get(collection, id),
    all: (collection) => live.store.all(collection),
    where: (collection, field, value) => live.store.where(collection, field, value),
    revision: (collection) => live.store.revision(collection),
    write: (fn) => live.store.write(fn),
    close: () => live.store.close(),
  };
}
