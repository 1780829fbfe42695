/**
 * The PostgreSQL store: the memory engine over a database that several processes (workers, hosts) share.
 *
 * One freshness rule: before a request is served, the process reads the database's write counter (`head.seq`)
 * and, when it moved past the last write this process applied, reads the rows written since (`sync()`, which the
 * core's dispatch awaits). The requests that arrive in one turn of the event loop, or while a read of the counter
 * runs, share the next one: under load a read costs a fraction of a round trip. So a write acknowledged by any
 * process is seen by the next request on every other, whatever the clocks say.
 *
 * Writes of every process are applied one at a time, each on the current rows: a write takes the row lock of the
 * schema's `head` in a transaction, catches up, and only then runs its function. So what the function checks (a
 * token not yet exchanged, a code not yet redeemed, the `updated_on` a client last saw, a free id) holds in the
 * database when the write commits, whichever process it lands on. A write is acknowledged once committed.
 *
 * What the database does to its connections: every connection has an error listener, so that a connection cut
 * under a write (a restart, a failover, `pg_terminate_backend`) fails that request with a 503 and the next one
 * opens another. Each session is limited ({@link SESSION_LIMITS}): a process that stops inside a write (SIGSTOP, a
 * paused VM) has its transaction rolled back by the database after two seconds idle, and a write waiting for the
 * lock gives up after four; its writer was never told the write was done, so nothing acknowledged is lost.
 *
 * node-postgres (`pg`): pure JavaScript (no native build on users' machines), a pool, parameter arrays for bulk
 * writes, and the most used driver, kept by its author since 2010.
 */
import pg from 'pg';
import { COLLECTIONS } from '../collections.js';
import { openStoreEngine, type PendingWrite, type Persistence, type StoreEngine } from '../engine.js';
import { StoreError, StoreUnavailableError } from '../errors.js';
import { type Serial, serial } from '../serial.js';
import type { CollectionName, Collections, Dataset, SharedFailures, Store } from '../types.js';
import { type ClaimOptions, openClaims } from './postgres-claims.js';
import { PRUNE_EVERY_MS, pruneDeleted } from './postgres-prune.js';
import { writeRows } from './postgres-rows.js';
import { migrateSchema, quoteSchema, SETUP_LIMITS, tableOf } from './postgres-schema.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** The data to create the store with when the schema holds none yet (or on `reset`). Default: empty. */
  initial?: () => Partial<Dataset>;
  /** Replace whatever the schema holds with `initial()`. Stop every other process on the schema first. */
  reset?: boolean;
  /**
   * The schema holding the tables, created when missing. Default: the URL's `?schema=` parameter, else
   * `storefront`. Lowercase letters, digits and `_`.
   */
  schema?: string;
  /** Connections this process opens at most. Default 4. */
  connections?: number;
  /** The claims' pool of connections, beside those (see `postgres-claims.ts`). */
  claims?: ClaimOptions;
}

/** A store in a PostgreSQL database. */
export interface PostgresStore extends Store {
  /** Whether this start created the data (the schema held none, or `reset` was asked for) from `initial`. */
  readonly created: boolean;
  /** The database's URL without its password, and the schema: what logs and messages name. */
  readonly location: string;
  /**
   * Resolves once memory holds every write committed when it was called: reads the write counter (shared by the
   * calls of one turn of the event loop) and catches up. Rejects with a `StoreUnavailableError` when the database
   * does not answer.
   */
  sync(): Promise<void>;
  /**
   * Removes the marks deleted rows leave once they are older than `olderThanMs` (default an hour; see
   * `postgres-prune.ts`); each process does it every 10 minutes by itself. Resolves with how many went.
   */
  prune(olderThanMs?: number): Promise<number>;
  /** Holds a row against every other process on the schema (see `postgres-claims.ts`). */
  claim: NonNullable<Store['claim']>;
}

/** Whether `data` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(data: string): boolean {
  return /^postgres(ql)?:\/\//i.test(data);
}

/** `text` (a store's URL or path, as given) with a URL's password masked: what messages and logs may show. */
export function withoutPassword(text: string): string {
  return text.replace(/(\/\/[^:/@]*):[^@/]*@/, '$1:***@');
}

type AnyRow = Collections[CollectionName];

/**
 * What a session may hold, ms. A transaction left idle (its process stopped or stuck between statements) is
 * rolled back after `idle_in_transaction_session_timeout`; a write waits for the write lock at most `lock_timeout`,
 * longer than that, so that it gets the lock of a stopped holder rather than a refusal; a statement runs at most
 * `statement_timeout`. A database that stops answering altogether (a dropped route) is given up on by the client
 * after `query_timeout`, and connecting after `connectionTimeoutMillis`.
 */
const SESSION_LIMITS = {
  idle_in_transaction_session_timeout: 2000,
  lock_timeout: 4000,
  statement_timeout: 10_000,
  query_timeout: 30_000,
  connectionTimeoutMillis: 5000,
  keepAlive: true,
} as const;
interface Target {
  connectionString: string;
  schema: string;
  location: string;
}

function targetOf(url: string, schemaOption: string | undefined): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StoreError(`Not a PostgreSQL URL: "${withoutPassword(url)}"`);
  }
  const schema = schemaOption ?? parsed.searchParams.get('schema') ?? 'storefront';
  parsed.searchParams.delete('schema');
  quoteSchema(schema);
  return { connectionString: parsed.href, schema, location: `${withoutPassword(parsed.href)} (schema ${schema})` };
}

/** A connection or query failure, named after the database and without its password. */
function failure(target: Target, what: string, error: unknown, Kind = StoreError): StoreError {
  return new Kind(`PostgreSQL ${target.location}: ${what}: ${(error as Error).message}`, { cause: error });
}

/**
 * Opens the store in the database at `url`: applies the schema's missing migrations, creates the data from
 * `options.initial` when the schema holds none, and loads it into memory.
 */
export async function createPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const target = targetOf(url, options.schema);
  const schema = quoteSchema(target.schema);
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: options.connections ?? 4,
    application_name: `storefront-server ${process.pid}`,
    ...SESSION_LIMITS,
  });
  // node-postgres emits 'error' on a client whose connection dies, checked out or idle, and an 'error' without a
  // listener ends the process. The query under way (if any) rejects with it, and the client, released with the
  // error, is dropped from the pool; the next request opens another.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect().catch((error) => {
      throw failure(target, 'cannot connect', error);
    });
    let created: boolean;
    let failed: Error | undefined;
    try {
      await migrateSchema(client, target.schema);
      created = await createData(client, schema, options);
    } catch (error) {
      failed = error as Error;
      throw error;
    } finally {
      client.release(failed);
    }
    const loaded = await load(pool, schema);
    /** The last write this process applied. */
    const state = { seen: loaded.head };
    let engine: StoreEngine | undefined;
    /** Catch-ups run one at a time, and never inside a write (which catches up under the write lock itself). */
    const exclusive = serial();
    /**
     * Applies the rows other processes wrote since this one last looked. `known`: a write number committed before
     * the query starts (the head read), reached even when no row carries it (a reset).
     */
    const catchUp = async (db: pg.Pool | pg.PoolClient, known: number) => {
      const { rows } = await db.query<{ c: CollectionName | null; id: string; row: AnyRow | null; version: string }>(
        catchUpSql(schema),
        [state.seen],
      );
      // Deletions this process did not apply lost their marks: only every row tells what is gone.
      if (Number(rows[0]!.version) > state.seen) return reload(db);
      const changes = new Map<CollectionName, Map<string, AnyRow | null>>();
      let top = Math.max(state.seen, known);
      for (const { c, id, row, version } of rows.slice(1)) {
        const rowsOf = changes.get(c!) ?? new Map<string, AnyRow | null>();
        changes.set(c!, rowsOf.set(id, row));
        top = Math.max(top, Number(version));
      }
      if (changes.size) engine!.applyOutside(changes);
      state.seen = top;
    };
    /** Replaces memory with every row of one snapshot, as if caught up with its head. */
    const reload = async (db: pg.Pool | pg.PoolClient) => {
      const loaded = await load(db, schema);
      const changes = new Map<CollectionName, Map<string, AnyRow | null>>();
      for (const name of COLLECTIONS) {
        const rowsOf = new Map<string, AnyRow | null>();
        for (const row of engine!.store.all(name)) rowsOf.set(row.id, null);
        for (const id of loaded.deleted.get(name) ?? []) rowsOf.set(id, null);
        for (const row of loaded.data[name] ?? []) rowsOf.set(row.id, row);
        if (rowsOf.size) changes.set(name, rowsOf);
      }
      engine!.applyOutside(changes);
      state.seen = loaded.head;
    };
    engine = openStoreEngine(loaded.data, writeThrough(pool, schema, target, exclusive, state, catchUp));
    for (const [name, ids] of loaded.deleted) {
      engine.applyOutside(new Map([[name, new Map(ids.map((id) => [id, null]))]]));
    }
    const prune = (olderThanMs?: number) => pruneDeleted(pool, schema, target.schema, olderThanMs);
    const pruning = setInterval(() => void prune().catch(() => undefined), PRUNE_EVERY_MS);
    pruning.unref();
    const store = engine.store;
    const headQuery = { name: 'storefront-head', text: `SELECT seq FROM ${schema}.head` };
    const check = async () => {
      const { rows } = await pool.query<{ seq: string }>(headQuery);
      const head = Number(rows[0]!.seq);
      if (head > state.seen) await exclusive(() => catchUp(pool, head));
    };
    let closed = false;
    let waiting: Promise<void> | undefined;
    let running: Promise<void> | undefined;
    // A request needs a check that starts after it arrived. The check starts once the event loop has taken in
    // what arrived meanwhile (setImmediate), so that the requests of one turn, and those arriving while a check
    // runs, share one.
    const sync = (): Promise<void> => {
      if (closed) return Promise.resolve();
      waiting ??= new Promise<void>((resolve, reject) => {
        const start = () => {
          waiting = undefined;
          const current = check()
            .catch((error) => {
              throw failure(target, 'cannot read the write counter', error, StoreUnavailableError);
            })
            .finally(() => {
              running = undefined;
            });
          running = current;
          current.then(resolve, reject);
        };
        setImmediate(() => (running ? running.catch(() => undefined).then(start) : start()));
      });
      return waiting;
    };
    const claims = openClaims(target.connectionString, schema, target.schema, target.location, options.claims);
    let closing: Promise<void> | undefined;
    return {
      ...store,
      created,
      location: target.location,
      sync,
      prune,
      failures: sharedFailures(pool, schema),
      claim: (collection, id) => claims.claim(collection, id),
      close() {
        closing ??= store.close().finally(async () => {
          closed = true;
          clearInterval(pruning);
          await Promise.all([pool.end().catch(() => undefined), claims.close().catch(() => undefined)]);
        });
        return closing;
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error instanceof StoreError ? error : failure(target, 'cannot open the data', error);
  }
}

/** The failed-login counts in `login_failures`, one statement each. */
function sharedFailures(pool: pg.Pool, schema: string): SharedFailures {
  const counts = (rows: { key: string; failures: number; last: string }[]) =>
    new Map(rows.map((row) => [row.key, { failures: row.failures, last: Number(row.last) }]));
  return {
    async read(keys) {
      const { rows } = await pool.query(
        `SELECT key, failures, last FROM ${schema}.login_failures WHERE key = ANY($1)`,
        [keys],
      );
      return counts(rows);
    },
    async fail(key, now, forgetMs) {
      // Counts past their forget time say nothing any more: dropped here, so that the table does not grow forever.
      const { rows } = await pool.query(
        `WITH forgotten AS (DELETE FROM ${schema}.login_failures WHERE last < $2::bigint - $3::bigint AND key <> $1)
         INSERT INTO ${schema}.login_failures AS f (key, failures, last) VALUES ($1, 1, $2)
         ON CONFLICT (key) DO UPDATE SET last = excluded.last,
           failures = CASE WHEN excluded.last - f.last > $3 THEN 1 ELSE f.failures + 1 END
         RETURNING key, failures, last`,
        [key, now, forgetMs],
      );
      return counts(rows).get(key)!;
    },
    async clear(key) {
      await pool.query(`DELETE FROM ${schema}.login_failures WHERE key = $1`, [key]);
    },
  };
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

/** Under the write lock: the initial data when the schema holds none (or on `reset`). Whether it created it. */
async function createData(client: pg.PoolClient, schema: string, options: PostgresStoreOptions): Promise<boolean> {
  await client.query(`BEGIN; ${SETUP_LIMITS}`);
  try {
    const { rows } = await client.query<{ seq: string }>(`SELECT seq FROM ${schema}.head FOR UPDATE`);
    let seq = Number(rows[0]!.seq);
    const empty = seq === 0;
    if (!empty && !options.reset) {
      await client.query('ROLLBACK');
      return false;
    }
    if (options.reset) {
      // DELETE rather than TRUNCATE: on small tables it is many times faster (no new files to create and sync).
      await client.query(COLLECTIONS.map((name) => `DELETE FROM ${tableOf(schema, name)}`).join('; '));
    }
    const data = options.initial?.() ?? {};
    seq += 1;
    const changes = COLLECTIONS.map((name) => ({ name, upserts: (data[name] ?? []) as AnyRow[], deletes: [] }));
    await writeRows(client, schema, seq, changes);
    const wrote = changes.some((change) => change.upserts.length > 0);
    if (wrote || options.reset) await client.query(`UPDATE ${schema}.head SET seq = $1`, [seq]);
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

interface Loaded {
  data: Partial<Dataset>;
  /** Ids of deleted rows by collection: never handed out again. */
  deleted: Map<CollectionName, string[]>;
  head: number;
}

/**
 * Every row and the write counter, from one snapshot: of a transaction of its own on `db` when it is the pool, or
 * on `db`, a write's connection, whose write lock keeps every other write out meanwhile.
 */
async function load(db: pg.Pool | pg.PoolClient, schema: string): Promise<Loaded> {
  if (!(db instanceof pg.Pool)) return readAll(db, schema);
  const client = await db.connect();
  let failed: Error | undefined;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const loaded = await readAll(client, schema);
    await client.query('COMMIT');
    return loaded;
  } catch (error) {
    failed = error as Error;
    throw error;
  } finally {
    client.release(failed);
  }
}

async function readAll(client: pg.PoolClient, schema: string): Promise<Loaded> {
  // Parsing a big table's rows takes a while between statements, which a request's limits would count as idle.
  const results = (await client.query(
    `${SETUP_LIMITS}; SELECT seq FROM ${schema}.head`,
  )) as unknown as pg.QueryResult[];
  const { rows } = results.at(-1)! as pg.QueryResult<{ seq: string }>;
  const data: Partial<Dataset> = {};
  const deleted = new Map<CollectionName, string[]>();
  for (const name of COLLECTIONS) {
    const result = await client.query<{ id: string; row: AnyRow | null }>(
      `SELECT id, row FROM ${tableOf(schema, name)} ORDER BY inserted`,
    );
    const live: AnyRow[] = [];
    const gone: string[] = [];
    for (const { id, row } of result.rows) {
      if (row) live.push(row);
      else gone.push(id);
    }
    (data as Record<CollectionName, AnyRow[]>)[name] = live;
    if (gone.length) deleted.set(name, gone);
  }
  return { data, deleted, head: Number(rows[0]!.seq) };
}

/** Waits for its turn in `queue` and holds it until the returned function is called. */
function hold(queue: Serial): Promise<() => void> {
  return new Promise((locked) => void queue(() => new Promise<void>((release) => locked(release))));
}

/**
 * Writes through the database: `begin` takes the write lock and catches up, `persist` writes the changed rows as
 * the next write number and commits. A failed commit leaves memory as it was; if it did commit after all (a
 * connection lost in the middle), the next write or `sync()` reads it back like another process's.
 */
function writeThrough(
  pool: pg.Pool,
  schema: string,
  target: Target,
  exclusive: Serial,
  state: { seen: number },
  catchUp: (db: pg.PoolClient, known: number) => Promise<void>,
): Persistence {
  let session: { client: pg.PoolClient; release: () => void } | undefined;
  const end = async (sql: string, error?: Error): Promise<void> => {
    const current = session;
    session = undefined;
    if (!current) return;
    let failed = error;
    try {
      await current.client.query(sql);
    } catch (cause) {
      // A COMMIT that failed half-way leaves the transaction open with the head row's lock: never back in the pool.
      failed ??= cause as Error;
      throw cause;
    } finally {
      current.client.release(failed);
      current.release();
    }
  };
  return {
    async begin() {
      const release = await hold(exclusive);
      let client: pg.PoolClient | undefined;
      try {
        client = await pool.connect();
        // One round trip (a simple query of two statements): a write's cost is mostly its round trips.
        const results = (await client.query(
          `BEGIN; SELECT seq FROM ${schema}.head FOR UPDATE`,
        )) as unknown as pg.QueryResult[];
        const head = Number(results[1]!.rows[0].seq);
        if (head > state.seen) await catchUp(client, head);
        session = { client, release };
      } catch (error) {
        if (client) {
          await client.query('ROLLBACK').catch(() => undefined);
          client.release(error as Error);
        }
        release();
        throw error instanceof StoreError
          ? error
          : failure(target, 'cannot begin a write', error, StoreUnavailableError);
      }
    },
    async persist(write: PendingWrite) {
      const client = session!.client;
      const seq = state.seen + 1;
      try {
        const changes = write.changed.map((name) => {
          const upserts: AnyRow[] = [];
          const deletes: string[] = [];
          for (const [id, row] of write.changes(name)) {
            if (row) upserts.push(row);
            else deletes.push(id);
          }
          return { name, upserts, deletes };
        });
        await writeRows(client, schema, seq, changes);
        // One round trip again; `seq` is a number, nothing here needs quoting.
        await end(`UPDATE ${schema}.head SET seq = ${seq}; COMMIT`);
        state.seen = seq;
      } catch (error) {
        await end('ROLLBACK', error as Error).catch(() => undefined);
        // A row the store refuses (StoreError) is a bug of the caller's, not an unavailable database.
        throw error instanceof StoreError
          ? error
          : failure(target, 'the write was not confirmed', error, StoreUnavailableError);
      }
    },
    async abandon() {
      await end('ROLLBACK').catch(() => undefined);
    },
  };
}
