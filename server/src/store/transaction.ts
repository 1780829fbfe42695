import { StoreError } from './errors.js';
import type { Row, Table } from './table.js';
import type { CollectionName, Collections, NewRow, Transaction } from './types.js';

/** The committed tables, by collection. */
export type Tables = { [C in CollectionName]: Table<Collections[C]> };

type Staged = Map<string, Row | null>;

/** A {@link Transaction} that stages its changes by collection; the store applies them after `fn` returns. */
export class StagedTransaction implements Transaction {
  /** Collection → id → new row (`null`: deleted), in staging order. */
  readonly staged = new Map<CollectionName, Staged>();
  private open = true;

  constructor(private readonly tables: Tables) {}

  /** Ends the transaction: a function that kept `tx` around cannot change anything afterwards. */
  close(): void {
    this.open = false;
  }

  get<C extends CollectionName>(collection: C, id: string): Collections[C] | undefined {
    const staged = this.staged.get(collection);
    if (staged?.has(id)) return (staged.get(id) ?? undefined) as Collections[C] | undefined;
    return this.tables[collection].get(id);
  }

  where<C extends CollectionName, K extends keyof Collections[C] & string>(
    collection: C,
    field: K,
    value: Collections[C][K],
  ): readonly Collections[C][] {
    const table = this.tables[collection];
    const committed = table.where(field, value);
    const staged = this.staged.get(collection) as Map<string, Collections[C] | null> | undefined;
    if (!staged?.size) return committed;
    const out: Collections[C][] = [];
    for (const row of committed) {
      if (!staged.has(row.id)) out.push(row);
      else {
        const next = staged.get(row.id);
        if (next && next[field] === value) out.push(next);
      }
    }
    for (const [id, row] of staged) {
      if (row && row[field] === value && table.get(id)?.[field] !== value) out.push(row);
    }
    return out;
  }

  insert<C extends CollectionName>(collection: C, row: NewRow<C>): Collections[C] {
    const staged = this.stage(collection);
    const { id: given, ...fields } = row;
    let id: string;
    if (given === undefined) id = this.tables[collection].allocateId((taken) => staged.has(taken));
    else if (typeof given !== 'string' || given === '') throw new StoreError(`Invalid ${collection} id`);
    else if (this.get(collection, given)) throw new StoreError(`${collection} already has a row with id "${given}"`);
    else id = given;
    const inserted = { id, ...fields } as unknown as Collections[C];
    staged.set(id, inserted);
    return inserted;
  }

  update<C extends CollectionName>(
    collection: C,
    id: string,
    patch: Partial<Omit<Collections[C], 'id'>>,
  ): Collections[C] {
    const current = this.get(collection, id);
    if (!current) throw new StoreError(`${collection} has no row with id "${id}"`);
    const updated = { ...current, ...patch, id } as Collections[C];
    this.stage(collection).set(id, updated);
    return updated;
  }

  /** Deleting a row that does not exist is a no-op, so that deletes can be repeated safely. */
  delete<C extends CollectionName>(collection: C, id: string): void {
    if (this.get(collection, id)) this.stage(collection).set(id, null);
  }

  private stage(collection: CollectionName): Staged {
    if (!this.open) throw new StoreError('This transaction has ended; make changes inside the write function');
    let staged = this.staged.get(collection);
    if (!staged) {
      staged = new Map();
      this.staged.set(collection, staged);
    }
    return staged;
  }
}
