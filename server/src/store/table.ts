/**
 * One collection held in memory: rows by id in insertion order, lazily built equality indexes and a
 * revision. Platform-neutral (no `node:` imports): the MSW entry runs it in browsers.
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
    this.allRows ??= Array.from(this.rows.values());
    return this.allRows;
  }

  where(field: string, value: unknown): readonly R[] {
    return this.index(field).get(value) ?? EMPTY;
  }

  /**
   * The id for a new row: the per-collection sequence, skipping ids that are taken (rows may arrive
   * with ids of their own). `reserved` holds ids staged but not yet committed.
   */
  allocateId(reserved: (id: string) => boolean): string {
    let id = String(this.nextId++);
    while (this.rows.has(id) || reserved(id)) id = String(this.nextId++);
    return id;
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
      if (old) this.unindex(old);
      if (row) {
        this.put(row);
        this.reindex(row);
      } else if (old) {
        this.rows.delete(id);
        this.ordinals.delete(id);
      }
    }
    this.allRows = undefined;
    this.revision++;
  }

  private put(row: R): void {
    this.rows.set(row.id, row);
    if (!this.ordinals.has(row.id)) this.ordinals.set(row.id, this.nextOrdinal++);
    // Keep the sequence ahead of numeric ids that came from outside (a loaded file, a seed).
    const n = Number(row.id);
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
      index = built;
      this.indexes.set(field, index);
    }
    return index;
  }

  private unindex(row: R): void {
    for (const [field, index] of this.indexes) {
      const value = (row as unknown as Record<string, unknown>)[field];
      const bucket = index.get(value);
      if (!bucket) continue;
      const rest = bucket.filter((r) => r.id !== row.id);
      if (rest.length) index.set(value, rest);
      else index.delete(value);
    }
  }

  private reindex(row: R): void {
    const ordinal = this.ordinals.get(row.id)!;
    for (const [field, index] of this.indexes) {
      const value = (row as unknown as Record<string, unknown>)[field];
      const bucket = index.get(value) ?? EMPTY;
      // Usually an append; a row moving between buckets (an update of the field) lands at its insertion place.
      let at = bucket.length;
      while (at > 0 && this.ordinals.get(bucket[at - 1]!.id)! > ordinal) at--;
      index.set(value, [...bucket.slice(0, at), row, ...bucket.slice(at)]);
    }
  }
}
