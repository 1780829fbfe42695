/**
 * The operations that steer a sandbox, on the core: one set, behind two doors (the MSW mock's methods and the
 * control API over HTTP, `http-door.ts`), each operation at both or at neither (see
 * docs/architecture "Steering the sandbox").
 */
import type { Dataset, SnapshotInfo, SnapshotShelf, Store } from '../store/types.js';
import type { SandboxClock } from './clock.js';
import type { FaultSet, SandboxFaults } from './faults.js';
import type { JournalEntry, JournalFilter, RequestJournal, SharedRequestJournal } from './journal.js';
import { captureDataset, restoreDataset } from './restore.js';
import { SandboxError } from './sandbox-error.js';

/** Snapshots of the whole data, by name. */
export interface SandboxSnapshots {
  /** Keeps the data as it is now under `name` (letters, digits, `.`, `_`, `-`; at most 64), replacing one of that name. */
  take(name: string): Promise<SnapshotInfo>;
  /** The snapshots, by name. */
  list(): Promise<SnapshotInfo[]>;
  /** Puts the data back as it was when `name` was taken, in one write. */
  restore(name: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** The clock everything the core dates follows. */
export interface SandboxClockControls {
  /** Epoch milliseconds. */
  now(): number;
  /** The time reads `epochMs` from now on, and runs on from there. */
  set(epochMs: number): void;
  /** Moves the time `ms` milliseconds forward. */
  advance(ms: number): void;
}

/** The request journal of one process (the MSW mock's). */
export interface SandboxJournal {
  /** The requests kept (the newest {@link RequestJournal.size}), oldest first, matching `filter`. */
  entries(filter?: JournalFilter): JournalEntry[];
  clear(): void;
}

/** The request journal of the processes sharing a store (see {@link SharedRequestJournal}). */
export interface SharedSandboxJournal {
  /** The requests kept (the newest {@link SharedRequestJournal.size}), oldest first, matching `filter`. */
  entries(filter?: JournalFilter): Promise<JournalEntry[]>;
  clear(): Promise<void>;
}

/** A journal as a sandbox's parts give it. */
type AnyJournal = RequestJournal | SharedRequestJournal;

/** The sandbox's operations on the journal `J`. */
type JournalOf<J extends AnyJournal> = J extends RequestJournal ? SandboxJournal : SharedSandboxJournal;

/** The operations on the core that a test steers a sandbox with; `J`: its journal, read at once or not. */
export interface Sandbox<J extends SandboxJournal | SharedSandboxJournal = SandboxJournal | SharedSandboxJournal> {
  /**
   * Back to the data the sandbox started with (the seed, for one that seeded). Snapshots, the journal, the fault
   * rules and the clock stay.
   */
  reset(): Promise<void>;
  snapshots: SandboxSnapshots;
  clock: SandboxClockControls;
  journal: J;
  /** Fault rules: error statuses, delays and cut connections for matching requests. */
  faults: SandboxFaults;
  /**
   * Resolves once the clock moves and fault rules changed through this sandbox so far are stored (so seen by every
   * process sharing the store), and reads show what any process stored before the call; rejects with the store's
   * error when that cannot be. Changes take effect in this process at once (the MSW mock's operations stay
   * synchronous); the control API awaits this before and after each operation.
   */
  settled(): Promise<void>;
}

/** What a sandbox steers. */
export interface SandboxParts<J extends AnyJournal = AnyJournal> {
  store: Store;
  /** What `reset` returns to. */
  reset: () => Promise<void>;
  shelf: SnapshotShelf;
  clock: SandboxClock;
  journal: J;
  faults: FaultSet;
  /** Told after the clock moved: the webhook loop looks again for attempts now due. */
  onClockMoved?: () => void;
}

const SNAPSHOT_NAME = /^[A-Za-z0-9._-]{1,64}$/;

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name)) {
    throw new SandboxError(
      `A snapshot's name is 1 to 64 letters, digits, ".", "_" or "-", got ${JSON.stringify(name)}`,
      400,
    );
  }
  return name;
}

function checkInstant(what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SandboxError(`${what} must be a finite number of milliseconds, got ${JSON.stringify(value)}`, 400);
  }
  return value;
}

/** The sandbox over `parts`. */
export function createSandbox<J extends AnyJournal>(parts: SandboxParts<J>): Sandbox<JournalOf<J>> {
  const { store, shelf, clock, journal } = parts;
  const moved = () => parts.onClockMoved?.();
  return {
    reset: () => parts.reset(),
    snapshots: {
      async take(name) {
        const info = { name: checkName(name), taken_on: new Date(clock.now()).toISOString() };
        await shelf.put(name, await captureDataset(store), info.taken_on);
        return info;
      },
      list: () => shelf.list(),
      async restore(name) {
        const data = await shelf.get(checkName(name));
        if (!data) throw new SandboxError(`No snapshot named "${name}"`, 404);
        await restoreDataset(store, data);
      },
      async delete(name) {
        if (!(await shelf.delete(checkName(name)))) throw new SandboxError(`No snapshot named "${name}"`, 404);
      },
    },
    clock: {
      now: () => clock.now(),
      set(epochMs) {
        clock.set(checkInstant('The time', epochMs));
        moved();
      },
      advance(ms) {
        clock.advance(checkInstant('The step', ms));
        moved();
      },
    },
    // Its reading operations only: the journal's own (`record`, `around`) are not the sandbox's.
    journal: {
      entries: (filter?: JournalFilter) => journal.entries(filter),
      clear: () => journal.clear(),
    } as JournalOf<J>,
    faults: {
      add: (rule) => parts.faults.add(rule),
      list: () => parts.faults.list(),
      clear: () => parts.faults.clear(),
    },
    async settled() {
      await Promise.all([parts.faults.stored(), clock.stored()]);
      await store.sync?.();
    },
  };
}

/** `reset` for a sandbox whose start state is `baseline`: restores it into `store`. */
export function resetTo(store: Store, baseline: Dataset): () => Promise<void> {
  return () => restoreDataset(store, baseline);
}
