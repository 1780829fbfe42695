/**
 * The PostgreSQL store's copy in memory: the memory engine loaded from the schema, and the number of the last
 * write it holds (`seen`), which only the replica moves: when it catches up with the rows other processes wrote,
 * and when this process's own write commits ({@link Replica.committed}).
 *
 * Catch-ups run one at a time, and never inside a write: a write holds the replica ({@link Replica.hold}) from
 * the moment it takes the write lock until it ends, and catches up itself, on its own connection, under its own
 * limits.
 */
import type pg from 'pg';
import { COLLECTIONS } from '../collections.js';
import { openStoreEngine, type Persistence, type StoreEngine } from '../engine.js';
import { serial } from '../serial.js';
import type { CollectionName, Collections, StoredData } from '../types.js';
import { Pool } from './postgres-driver.js';
import { SCHEMA_VERSION, tableOf, versionSql } from './postgres-schema.js';
import { SETUP_LIMITS, setLimits } from './postgres-session.js';

type AnyRow = Collections[CollectionName];
type Changes = Map<CollectionName, Map<string, AnyRow | null>>;

/** The copy in memory of one schema. */
export interface Replica {
  readonly engine: StoreEngine;
  /** The number of the last write memory holds. */
  readonly seen: number;
  /** Waits until no catch-up runs and holds off the next until the returned function is called: a write's turn. */
  hold(): Promise<() => void>;
  /**
   * Applies the rows written since `seen`, read on `db` (a write's connection, inside its transaction). `known`: a
   * write number committed before the read (the head the write locked), reached even when no row carries it.
   */
  catchUp(db: pg.PoolClient, known: number): Promise<void>;
  /** Catches up on `pool` when the head read there, `head`, is past `seen`; waits for the write under way. */
  refresh(pool: pg.Pool, head: number): Promise<void>;
  /** This process's write number `seq` committed: memory holds it (the engine applied it). */
  committed(seq: number): void;
}

/**
 * Loads every row of `schema` (quoted) into a new engine persisting through `persistence`, which gets the replica
 * (a write reads `seen` and reports what it committed).
 */
export async function openReplica(
  pool: pg.Pool,
  schema: string,
  persistence: (replica: Replica) => Persistence,
  /** The rows, when read already ({@link loadIfCurrent}). */
  given?: Loaded,
): Promise<Replica> {
  const loaded = given ?? (await load(pool, schema));
  let seen = loaded.head;
  let engine: StoreEngine | undefined;
  const exclusive = serial();
  const catchUp = async (db: pg.Pool | pg.PoolClient, known: number) => {
    const { rows } = await db.query<{ c: CollectionName | null; id: string; row: AnyRow | null; version: string }>(
      catchUpSql(schema),
      [seen],
    );
    // Deletions this process did not apply lost their marks: only every row tells what is gone.
    if (Number(rows[0]!.version) > seen) return reload(db);
    const changes: Changes = new Map();
    let top = Math.max(seen, known);
    for (const { c, id, row, version } of rows.slice(1)) {
      const rowsOf = changes.get(c!) ?? new Map<string, AnyRow | null>();
      changes.set(c!, rowsOf.set(id, row));
      top = Math.max(top, Number(version));
    }
    if (changes.size) engine!.applyOutside(changes);
    seen = top;
  };
  /** Replaces memory with every row of one snapshot, as if caught up with its head. */
  const reload = async (db: pg.Pool | pg.PoolClient) => {
    const fresh = await load(db, schema);
    const changes: Changes = new Map();
    for (const name of COLLECTIONS) {
      const rowsOf = new Map<string, AnyRow | null>();
      for (const row of engine!.store.all(name)) rowsOf.set(row.id, null);
      for (const id of fresh.deleted.get(name) ?? []) rowsOf.set(id, null);
      for (const row of fresh.data[name] ?? []) rowsOf.set(row.id, row);
      if (rowsOf.size) changes.set(name, rowsOf);
    }
    engine!.applyOutside(changes);
    seen = fresh.head;
  };
  const replica: Replica = {
    get engine() {
      return engine!;
    },
    get seen() {
      return seen;
    },
    hold: () => new Promise((held) => void exclusive(() => new Promise<void>((release) => held(release)))),
    catchUp,
    async refresh(db, head) {
      if (head > seen) await exclusive(() => catchUp(db, head));
    },
    committed(seq) {
      seen = seq;
    },
  };
  engine = openStoreEngine(loaded.data, persistence(replica));
  for (const [name, ids] of loaded.deleted) {
    engine.applyOutside(new Map([[name, new Map(ids.map((id) => [id, null]))]]));
  }
  return replica;
}

/**
 * The rows written since write `$1`, in their order, after a first row (`c` null) whose `version` is
 * `head.pruned`: one statement, so both come from one snapshot.
 */
function catchUpSql(schema: string): string {
  const parts = COLLECTIONS.map(
    (name) => `SELECT '${name}' AS c, id, row, inserted, version FROM ${tableOf(schema, name)} WHERE version > $1`,
  );
  const pruned = `SELECT NULL AS c, NULL AS id, NULL::json AS row, -1::bigint AS inserted, pruned AS version FROM ${schema}.head`;
  return `SELECT c, id, row, version FROM (${[pruned, ...parts].join(' UNION ALL ')}) AS changed ORDER BY inserted`;
}

/** What a replica starts from: every row of one snapshot of the schema. */
export interface Loaded {
  data: Partial<StoredData>;
  /** Ids of deleted rows by collection: never handed out again. */
  deleted: Map<CollectionName, string[]>;
  head: number;
}

/** The transaction every row is read in when the pool's connection is the reader's own (see {@link load}). */
const readOnly = (): string => `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${setLimits(SETUP_LIMITS)}`;

/**
 * Every row and the write counter, from one snapshot: of a transaction of its own on `db` when it is the pool
 * (under the setup limits: parsing a big table's rows takes a while, which a write's limits would count as idle),
 * or on `db`, a write's connection, whose write lock keeps every other write out meanwhile (under the write's
 * limits). One round trip either way: the statements go in one batch.
 */
async function load(db: pg.Pool | pg.PoolClient, schema: string): Promise<Loaded> {
  if (!(db instanceof Pool)) return loadedFrom(await batch(db, readAllSql(schema)));
  const client = await db.connect();
  let failed: Error | undefined;
  try {
    return loadedFrom(await batch(client, [readOnly(), readAllSql(schema), 'COMMIT'].join('; ')));
  } catch (error) {
    failed = error as Error;
    throw error;
  } finally {
    client.release(failed);
  }
}

/**
 * At a start on data that exists: every row, in one round trip, when the schema (quoted) is at
 * {@link SCHEMA_VERSION} and holds data; `undefined` when it is new, empty or of another version (a schema or a table
 * that does not exist yet included), which the migrations, under their lock, then take care of.
 */
export async function loadIfCurrent(client: pg.PoolClient, schema: string): Promise<Loaded | undefined> {
  let selects: pg.QueryResult[];
  try {
    selects = await batch(client, [readOnly(), versionSql(schema), readAllSql(schema), 'COMMIT'].join('; '));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // 3F000: no such schema; 42P01: no such table.
    if (code !== '3F000' && code !== '42P01') throw error;
    await client.query('ROLLBACK');
    return undefined;
  }
  const [current, ...rows] = selects;
  if (Number(current?.rows[0]?.version) !== SCHEMA_VERSION) return undefined;
  const loaded = loadedFrom(rows);
  return loaded.head === 0 ? undefined : loaded;
}

/**
 * Text of rows per JSON array of {@link readAllSql}, at most (plus one row): far from PostgreSQL's 1 GB limit on a
 * value and V8's on a string's length, whatever the rows weigh (assets' bytes).
 */
const PART_BYTES = 16 * 1024 * 1024;

/**
 * The statements reading the write counter, then every collection's rows in their order, as JSON arrays of
 * `[id, row]` (`row` null for a deletion's mark), one per {@link PART_BYTES} of rows: node-postgres then parses
 * one value where it parsed a message per row, a third of a start's load in CPU time on the demo data.
 */
function readAllSql(schema: string): string {
  return [
    `SELECT seq FROM ${schema}.head`,
    ...COLLECTIONS.map(
      (name) =>
        `SELECT json_agg(json_build_array(id, row) ORDER BY inserted) AS pairs FROM (SELECT id, row, inserted,` +
        ` sum(coalesce(octet_length(row::text), 0)) OVER (ORDER BY inserted) / ${PART_BYTES} AS part` +
        ` FROM ${tableOf(schema, name)}) AS parts GROUP BY part ORDER BY part`,
    ),
  ].join('; ');
}

/** The results of the `SELECT`s of `sql`, several statements sent as one query (no parameters). */
async function batch(client: pg.PoolClient, sql: string): Promise<pg.QueryResult[]> {
  // node-postgres answers a query of several statements with one result per statement.
  const results = (await client.query(sql)) as unknown as pg.QueryResult[];
  return results.filter((result) => result.command === 'SELECT');
}

/** The rows of {@link readAllSql}'s results. */
function loadedFrom([head, ...tables]: pg.QueryResult[]): Loaded {
  const data: Partial<StoredData> = {};
  const deleted = new Map<CollectionName, string[]>();
  COLLECTIONS.forEach((name, i) => {
    const live: AnyRow[] = [];
    const gone: string[] = [];
    for (const { pairs } of tables[i]!.rows as { pairs: [string, AnyRow | null][] }[]) {
      for (const [id, row] of pairs) {
        if (row) live.push(row);
        else gone.push(id);
      }
    }
    (data as Record<CollectionName, AnyRow[]>)[name] = live;
    if (gone.length) deleted.set(name, gone);
  });
  return { data, deleted, head: Number(head!.rows[0]!.seq) };
}
