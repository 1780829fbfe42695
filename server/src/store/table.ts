/**
 * One collection held in memory: rows by id in insertion order, lazily built equality indexes and a
 * revision. Platform-neutral (no `node:` imports): the MSW entry runs it in browsers. The arrays `all()` and
 * `where()` return are frozen: several stores may read one table (see `SharedTables`), and a caller sorting
 * one in place would reorder it for all of them.
 */

/** The minimal shape every stored row has. */
export interface Row {
  id: string;
}

/** A change to apply to a table: the new row, or `null` for a deletion. Keyed by id, in staging order. */
export type Changes<R extends Row> = ReadonlyMap<string, R | null>;

const EMPTY: readonly never[] = Object.freeze([]);
const BULK = 64;

export class Table<R extends Row> {
  /** Map iteration order is insertion order and survives value replacement, so updates keep a row's place. */
  private readonly rows = new Map<string, R>();
  /** Position of each row in insertion order; keeps index buckets ordered when a row moves between them. */
  private readonly ordinals = new Map<string, number>();
  private nextOrdinal = 0;
  /** field → value → rows with that value, in insertion order. Buckets are replaced, never mutated, on change. */
  private readonly indexes = new Map<string, Map<unknown, readonly R[]>>();
  private allRows: readonly R[] | undefined;
  private nextId = 1;
  revision = 0;

  constructor(rows: readonly R[] = []) {
    for (const row of rows) {
      if (this.rows.has(row.id)) throw new Error(`Duplicate id "${row.id}"`);
      this.put(row);
    }
  }

  get size(): number {
    return this.rows.size;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  get(id: string): R | undefined {
    return this.rows.get(id);
  }

  all(): readonly R[] {
    this.allRows ??= Object.freeze(Array.from(this.rows.values()));
    return this.allRows;
  }

  where(field: string, value: unknown): readonly R[] {
    return this.index(field).get(value) ?? EMPTY;
  }

  /**
   * The id for a new row: the per-collection sequence, skipping ids that are taken (rows may arrive
   * with ids of their own). `reserved` holds ids staged but not yet committed. Reading only: the sequence moves
   * when the row is applied, so that a table shared by several stores (see `SharedTables`) is never changed by
   * a transaction.
   */
  allocateId(reserved: (id: string) => boolean): string {
    let n = this.nextId;
    while (this.rows.has(String(n)) || reserved(String(n))) n++;
    return String(n);
  }

  /**
   * An independent table with the same rows, indexes and revision: what a store writes to in place of a table
   * it shares. O(rows); the index buckets are shared, since they are replaced, never changed.
   */
  copy(): Table<R> {
    const copy = new Table<R>();
    for (const [id, row] of this.rows) copy.rows.set(id, row);
    for (const [id, ordinal] of this.ordinals) copy.ordinals.set(id, ordinal);
    for (const [field, index] of this.indexes) copy.indexes.set(field, new Map(index));
    copy.nextOrdinal = this.nextOrdinal;
    copy.nextId = this.nextId;
    copy.allRows = this.allRows;
    copy.revision = this.revision;
    return copy;
  }

  /** Rows as they will be once `changes` are applied, without applying them (persistence writes these first). */
  preview(changes: Changes<R>): R[] {
    const out: R[] = [];
    for (const [id, row] of this.rows) {
      const next = changes.has(id) ? changes.get(id) : row;
      if (next) out.push(next);
    }
    for (const [id, row] of changes) if (row && !this.rows.has(id)) out.push(row);
    return out;
  }

  apply(changes: Changes<R>): void {
    if (changes.size === 0) return;
    // Patching an index costs a copy of the bucket per row; past a few rows rebuilding it on next use is cheaper.
    if (changes.size > BULK) this.indexes.clear();
    for (const [id, row] of changes) {
      const old = this.rows.get(id);
      if (row) {
        this.put(row);
        if (old) this.replace(old, row);
        else this.reindex(row);
      } else if (old) {
        this.unindex(old);
        this.rows.delete(id);
        this.ordinals.delete(id);
      } else {
        // A row this table never held, deleted by another process sharing the data: its id is not handed out again.
        this.skip(id);
      }
    }
    this.allRows = undefined;
    this.revision++;
  }

  private put(row: R): void {
    this.rows.set(row.id, row);
    if (!this.ordinals.has(row.id)) this.ordinals.set(row.id, this.nextOrdinal++);
    // Keep the sequence ahead of numeric ids that came from outside (a loaded file, a seed).
    this.skip(row.id);
  }

  private skip(id: string): void {
    const n = Number(id);
    if (Number.isSafeInteger(n) && n >= this.nextId) this.nextId = n + 1;
  }

  private index(field: string): Map<unknown, readonly R[]> {
    let index = this.indexes.get(field);
    if (!index) {
      const built = new Map<unknown, R[]>();
      for (const row of this.rows.values()) {
        const value = (row as unknown as Record<string, unknown>)[field];
        const bucket = built.get(value);
        if (bucket) bucket.push(row);
        else built.set(value, [row]);
      }
      for (const bucket of built.values()) Object.freeze(bucket);
      index = built;
      this.indexes.set(field, index);
    }
    return index;
  }

  private unindex(row: R): void {
    for (const [field, index] of this.indexes) this.removeFrom(index, fieldValue(row, field), row);
  }

  private reindex(row: R): void {
    for (const [field, index] of this.indexes) this.insertInto(index, fieldValue(row, field), row);
  }

  /**
   * Puts `row` in place of `old`, its previous version, in every index. A row whose indexed value is unchanged (most
   * updates) takes the old one's slot: one copy of the bucket, where removing and inserting it again cost a search of
   * the bucket by insertion order, for every write of a row of a large bucket (a theme's templates).
   */
  private replace(old: R, row: R): void {
    for (const [field, index] of this.indexes) {
      const value = fieldValue(row, field);
      const before = fieldValue(old, field);
      const bucket = index.get(value);
      const at = before === value && bucket ? bucket.indexOf(old) : -1;
      if (at >= 0) {
        const copy = bucket!.slice();
        copy[at] = row;
        index.set(value, Object.freeze(copy));
      } else {
        this.removeFrom(index, before, old);
        this.insertInto(index, value, row);
      }
    }
  }

  private removeFrom(index: Map<unknown, readonly R[]>, value: unknown, row: R): void {
    const bucket = index.get(value);
    if (!bucket) return;
    const rest = bucket.filter((r) => r.id !== row.id);
    if (rest.length) index.set(value, Object.freeze(rest));
    else index.delete(value);
  }

  private insertInto(index: Map<unknown, readonly R[]>, value: unknown, row: R): void {
    const ordinal = this.ordinals.get(row.id)!;
    const bucket = index.get(value) ?? EMPTY;
    // Usually an append; a row moving between buckets (an update of the field) lands at its insertion place.
    let at = bucket.length;
    while (at > 0 && this.ordinals.get(bucket[at - 1]!.id)! > ordinal) at--;
    index.set(value, Object.freeze([...bucket.slice(0, at), row, ...bucket.slice(at)]));
  }
}

/** The value of `field` in `row`, as the indexes key it. */
function fieldValue(row: Row, field: string): unknown {
  return (row as unknown as Record<string, unknown>)[field];
}
