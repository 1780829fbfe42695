/**
 * The store logic every adapter shares: tables in memory, synchronous reads, one write queue, staged
 * transactions. An adapter adds durability through {@link Persistence}. Platform-neutral.
 */
import { COLLECTIONS } from './collections.js';
import { StoreError } from './errors.js';
import { serial } from './serial.js';
import type { SharedTables } from './shared-tables.js';
import { type Row, Table } from './table.js';
import { StagedTransaction, type Tables } from './transaction.js';
import type { CollectionName, Collections, Store, StoredData, Transaction } from './types.js';

/** A write about to be applied, as a {@link Persistence} sees it. */
export interface PendingWrite {
  /** The collections it changes. */
  readonly changed: readonly CollectionName[];
  /** A changed collection's rows as they will be once the write is applied, in order. O(rows): for small collections. */
  rows<C extends CollectionName>(name: C): Collections[C][];
  /** A row as it will be once the write is applied (`undefined`: absent then). */
  row<C extends CollectionName>(name: C, id: string): Collections[C] | undefined;
  /** How many rows a changed collection will hold once the write is applied. */
  count(name: CollectionName): number;
  /** A changed collection's changes: id → the new row, or `null` for a deletion. */
  changes<C extends CollectionName>(name: C): ReadonlyMap<string, Collections[C] | null>;
}

/** How an adapter makes a write durable before it is applied in memory and acknowledged. */
export interface Persistence {
  /**
   * Called in the queue before a write's function runs. An adapter whose data other processes change too (see
   * `postgres.ts`) takes the data's lock here and brings memory up to date, so that the function decides on
   * the current rows; the write then ends with `persist`, or with `abandon` when it changed nothing or threw.
   */
  begin?(): Promise<void>;
  /** Stores a write. Rejecting aborts it: memory stays as it was and the writer sees the error. */
  persist(write: PendingWrite): Promise<void>;
  /** Ends a write begun by `begin` that stores nothing. */
  abandon?(): Promise<void>;
  /** Called once by `close()` after the last write. */
  close?(): Promise<void>;
}

/** A store over `data`; without `persistence` it lives in memory only. */
export function createStoreEngine(data: Partial<StoredData> = {}, persistence?: Persistence): Store {
  return openStoreEngine(data, persistence).store;
}

/** Changes made by another process, to apply to memory: collection → id → the row now, or `null` (deleted). */
export type OutsideChanges = ReadonlyMap<CollectionName, ReadonlyMap<string, Collections[CollectionName] | null>>;

/** A store and the way its adapter brings changes other processes made into its memory. */
export interface StoreEngine {
  store: Store;
  /** Applies changes other processes made; call it only between writes (in `begin`, or outside the queue). */
  applyOutside(changes: OutsideChanges): void;
}

/** {@link createStoreEngine} for an adapter whose data other processes change too. */
export function openStoreEngine(data: Partial<StoredData> = {}, persistence?: Persistence): StoreEngine {
  const tables = Object.fromEntries(COLLECTIONS.map((name) => [name, new Table<Row>(data[name] ?? [])]));
  return {
    store: storeOver(tables as unknown as Tables, persistence),
    applyOutside(changes) {
      for (const [name, rows] of changes) (tables[name] as Table<Row>).apply(rows as Map<string, Row | null>);
    },
  };
}

/** A store in memory over `shared`'s tables: it copies a table when it first writes to it. */
export function createSharingStore(shared: SharedTables): Store {
  return storeOver(Object.create(shared.tables));
}

/** The store over `tables`: its own, or an object whose prototype holds shared ones. */
function storeOver(tables: Tables, persistence?: Persistence): Store {
  /** The table of `name` this store may change: its own, copied from the shared one on first use. */
  const own = (name: CollectionName) => {
    if (!Object.hasOwn(tables, name)) Object.defineProperty(tables, name, { value: tables[name].copy() });
    return tables[name];
  };
  const queue = serial();
  let closing: Promise<void> | undefined;

  /** Runs a write in the queue. */
  async function run<T>(fn: (tx: Transaction) => T): Promise<T> {
    await persistence?.begin?.();
    const tx = new StagedTransaction(tables);
    let result: T;
    try {
      // An async function is awaited too, but it holds the queue while it waits: keep writes synchronous.
      result = await fn(tx);
    } catch (error) {
      await persistence?.abandon?.();
      throw error;
    } finally {
      tx.close();
    }
    const changed = [...tx.staged].filter(([, changes]) => changes.size > 0);
    if (changed.length === 0) {
      await persistence?.abandon?.();
      return result;
    }
    if (persistence) {
      await persistence.persist({
        changed: changed.map(([name]) => name),
        rows: (name) => tables[name].preview(tx.staged.get(name) as Map<string, never>),
        row: (name, id) => tx.get(name, id),
        count: (name) => {
          let count = tables[name].size;
          for (const [id, row] of tx.staged.get(name) ?? []) count += (row ? 1 : 0) - (tables[name].has(id) ? 1 : 0);
          return count;
        },
        changes: (name) => tx.staged.get(name) as Map<string, never>,
      });
    }
    for (const [name, changes] of changed) own(name).apply(changes as Map<string, never>);
    return result;
  }

  return {
    get: (collection, id) => tables[collection].get(id),
    all: (collection) => tables[collection].all(),
    where: (collection, field, value) => tables[collection].where(field, value),
    revision: (collection) => tables[collection].revision,
    write(fn) {
      if (closing) return Promise.reject(new StoreError('The store is closed'));
      return queue(() => run(fn));
    },
    close() {
      closing ??= queue(() => persistence?.close?.());
      return closing;
    },
  };
}
