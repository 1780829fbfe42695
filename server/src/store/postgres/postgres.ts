/**
 * The PostgreSQL store: the memory engine over a database that several processes (workers, hosts) share. Its
 * rooms: the copy in memory and the one owner of its write number (`postgres-replica.ts`), the write path
 * (`postgres-writes.ts`), the freshness rule that keeps reads current (`postgres-freshness.ts`), the connections
 * and their limits (`postgres-session.ts`), the schema and its migrations (`postgres-schema.ts`), claims, pruning,
 * the failed-login and rate limit counts, and the sandbox's snapshots and request journal. This file opens them, in
 * order.
 *
 * What the database does to its connections: a connection cut under a write (a restart, a failover,
 * `pg_terminate_backend`) fails that request with a 503 and the next one opens another; an idle one's loss is told
 * once per incident (`warn`). Each write is limited (`WRITE_LIMITS`): a process that stops inside a write (SIGSTOP,
 * a paused VM) has its transaction rolled back by the database after two seconds idle, and a write waiting for the
 * lock gives up after four; its writer was never told the write was done, so nothing acknowledged is lost. The
 * limits are set inside each transaction, so a connection pooler (PgBouncer, transaction or session pooling) may
 * stand between the servers and the database.
 *
 * node-postgres (`pg`): pure JavaScript (no native build on users' machines), a pool, parameter arrays for bulk
 * writes, and the most used driver, kept by its author since 2010.
 */
import type pg from 'pg';
import { COLLECTIONS } from '../collections.js';
import { StoreError, StoreUnavailableError } from '../errors.js';
import type { CollectionName, Collections, Dataset, Store, StoredData } from '../types.js';
import { type ClaimOptions, openClaims } from './postgres-claims.js';
import { guardedQuery } from './postgres-driver.js';
import { sharedFailures } from './postgres-failures.js';
import { freshness } from './postgres-freshness.js';
import { sharedJournal } from './postgres-journal.js';
import { PRUNE_EVERY_MS, pruneDeleted } from './postgres-prune.js';
import { sharedRateCounts } from './postgres-rate-counts.js';
import { type Loaded, loadIfCurrent, openReplica, type Replica } from './postgres-replica.js';
import { writeRows } from './postgres-rows.js';
import { migrateSchema, quoteSchema, tableOf } from './postgres-schema.js';
import { openPool, SETUP_LIMITS, saidOnce, setLimits } from './postgres-session.js';
import { sharedSnapshots } from './postgres-snapshots.js';
import { withoutPassword } from './postgres-url.js';
import { writeThrough } from './postgres-writes.js';

export { isPostgresUrl, withoutPassword } from './postgres-url.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** The data to create the store with when the schema holds none yet (or on `reset`). Default: empty. */
  initial?: () => Partial<Dataset> | Promise<Partial<Dataset>>;
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
  /**
   * Where trouble that no request sees is told (an idle connection cut, a claim lost), once per incident and
   * without the URL's password. Default `console.warn`.
   */
  warn?: (line: string) => void;
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

type AnyRow = Collections[CollectionName];

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
  const warn = saidOnce(options.warn ?? ((line) => console.warn(line)));
  const tell = (what: string, error: unknown) =>
    warn.say(`storefront-server: PostgreSQL ${target.location}: ${what}: ${(error as Error).message}`);
  const pool = openPool({
    connectionString: target.connectionString,
    name: `storefront-server ${process.pid}`,
    max: options.connections ?? 4,
    tell,
  });
  try {
    const client = await pool.connect().catch((error) => {
      throw failure(target, 'cannot connect', error);
    });
    let created = false;
    let loaded: Loaded | undefined;
    let failed: Error | undefined;
    try {
      // Data that exists, of this version, is read in one round trip; anything else (a new schema, an older one,
      // empty data, a reset) goes through the migrations' lock, then is read.
      if (!options.reset) loaded = await loadIfCurrent(client, schema);
      if (!loaded) {
        await migrateSchema(client, target.schema);
        created = await createData(client, schema, options);
      }
    } catch (error) {
      failed = error as Error;
      throw error;
    } finally {
      client.release(failed);
    }
    const unavailable = (what: string, error: unknown) => failure(target, what, error, StoreUnavailableError);
    const persistence = (replica: Replica) => writeThrough(pool, schema, replica, unavailable);
    const replica = await openReplica(pool, schema, persistence, loaded);
    const prune = (olderThanMs?: number) => pruneDeleted(pool, schema, target.schema, olderThanMs);
    const pruning = setInterval(() => void prune().catch(() => undefined), PRUNE_EVERY_MS);
    pruning.unref();
    const fresh = freshness(pool, schema, replica, unavailable);
    const store = replica.engine.store;
    const claims = openClaims(target.connectionString, schema, target.schema, tell, options.claims);
    let closing: Promise<void> | undefined;
    return {
      ...store,
      created,
      location: target.location,
      sync: fresh.sync,
      prune,
      failures: sharedFailures(pool, schema),
      rateCounts: sharedRateCounts(guardedQuery(pool, unavailable, 'the rate limit counts'), schema),
      snapshots: sharedSnapshots(guardedQuery(pool, unavailable, 'the snapshots'), schema),
      journal: sharedJournal(guardedQuery(pool, unavailable, 'the request journal'), schema),
      claim: (collection, id) => claims.claim(collection, id),
      close() {
        closing ??= store.close().finally(async () => {
          fresh.stop();
          clearInterval(pruning);
          await Promise.all([pool.end().catch(() => undefined), claims.close().catch(() => undefined)]);
          warn.stop();
        });
        return closing;
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    warn.stop();
    throw error instanceof StoreError ? error : failure(target, 'cannot open the data', error);
  }
}

/**
 * Whether the schema `url` names exists, without creating it: an import looks at its destination so, leaving no
 * empty tables behind when it fails before writing.
 */
export async function hasSchema(url: string): Promise<boolean> {
  const target = targetOf(url, undefined);
  const pool = openPool({ connectionString: target.connectionString, name: 'storefront-server', max: 1, tell() {} });
  try {
    const { rows } = await pool.query<{ present: boolean }>('SELECT to_regnamespace($1) IS NOT NULL AS present', [
      quoteSchema(target.schema),
    ]);
    return rows[0]!.present;
  } catch (error) {
    throw failure(target, 'cannot connect', error);
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** Under the write lock: the initial data when the schema holds none (or on `reset`). Whether it created it. */
async function createData(client: pg.PoolClient, schema: string, options: PostgresStoreOptions): Promise<boolean> {
  await client.query(`BEGIN; ${setLimits(SETUP_LIMITS)}`);
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
    const data: Partial<StoredData> = (await options.initial?.()) ?? {};
    seq += 1;
    const changes = COLLECTIONS.map((name) => ({ name, upserts: (data[name] ?? []) as AnyRow[], deletes: [] }));
    await writeRows(client, schema, seq, changes);
    const wrote = changes.some((change) => change.upserts.length > 0);
    // A reset's DELETEs leave no marks: `pruned` moved to this write makes every process that applied less reload
    // every row at its next sync (the one freshness rule), instead of keeping, and writing back, rows now gone.
    if (options.reset) await client.query(`UPDATE ${schema}.head SET seq = $1, pruned = $1`, [seq]);
    else if (wrote) await client.query(`UPDATE ${schema}.head SET seq = $1`, [seq]);
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
