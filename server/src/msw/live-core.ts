/**
 * The mock's current store and core, replaced as a whole by `reset()`, and a {@link Store} that always reads
 * and writes the current one, so that a test may keep the `store` it got before a reset.
 */
import { type Core, type CoreOptions, createSharingCore } from '../core/index.js';
import type { Addresses, Clock, RequestLimiter } from '../core/types.js';
import { PristineRepresentations } from '../http/representation-cache.js';
import { createSharingStore } from '../store/engine.js';
import { SharedTables } from '../store/shared-tables.js';
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
  /** The mock's rate limit, kept across resets. */
  rateLimit?: RequestLimiter;
}

/** What a mock adds to each core it builds (its first and those of each `reset()`). */
export interface CoreHooks {
  /** The store the core is given, over the fresh one. */
  store?(store: Store): Store;
  /** The core's options (its webhook sender). */
  options?(): CoreOptions;
}

/**
 * The live core over `initial`, a data set nobody changes; its rows are checked (unique ids) now unless
 * `checked` says they need not be. No start copies it: each store reads the tables built over it once per
 * process and copies a table only when it first writes to it, so a start, and each `reset()`, costs what the
 * test changes, not the size of the data.
 */
export function liveCore(initial: Dataset, settings: CoreSettings, checked: boolean, hooks: CoreHooks = {}): LiveCore {
  const shared = sharedOf(initial);
  if (!checked) shared.tables.check();
  const pristine = shared.representationsAt(settings.addresses.origin);
  const build = () => {
    const fresh = createSharingStore(shared.tables);
    const given = hooks.store?.(fresh) ?? fresh;
    // A new core too: its representation cache is keyed by store revisions, which start over with the store.
    return { store: given, core: createSharingCore({ store: given, ...settings }, pristine, hooks.options?.()) };
  };
  let current = build();
  return {
    get core() {
      return current.core;
    },
    get store() {
      return current.store;
    },
    reset() {
      // The replaced core's delivery loop stops (its attempts in flight end on their own).
      void current.core.webhooks?.close();
      current = build();
    },
  };
}

/** What every mock of the process over one data set shares: its tables, and its representations per origin. */
class SharedData {
  readonly representations = new Map<string, PristineRepresentations>();
  constructor(readonly tables: SharedTables) {}

  representationsAt(origin: string): PristineRepresentations {
    let pristine = this.representations.get(origin);
    if (!pristine) {
      pristine = new PristineRepresentations();
      this.representations.set(origin, pristine);
    }
    return pristine;
  }
}

/**
 * By data set (the seeded ones are shared too: see `initialData`). On `globalThis` for the same reason as the
 * seeded data: test runners load the modules afresh for each test file.
 */
const SHARED = Symbol.for('@storefront-platform/server/msw: shared data');
const processWide = globalThis as { [SHARED]?: WeakMap<Dataset, SharedData> };

function sharedOf(initial: Dataset): SharedData {
  processWide[SHARED] ??= new WeakMap();
  let shared = processWide[SHARED].get(initial);
  if (!shared) {
    shared = new SharedData(new SharedTables(initial));
    processWide[SHARED].set(initial, shared);
  }
  return shared;
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
