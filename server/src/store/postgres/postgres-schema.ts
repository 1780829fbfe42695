/**
 * The PostgreSQL store's tables, in a schema of their own (`storefront` unless told), and the versioned
 * migrations that create and change them. A server applies the missing ones as it starts, in order, each in a
 * transaction, under a lock: several processes starting at once on a new database apply each migration once.
 *
 * Version 1: a table per collection, `id text primary key, row json, inserted bigint, version bigint`. `row` is
 * the row as the store holds it (`json`, not `jsonb`: kept as written, key order included, and parsed as one
 * string); `null` marks a deleted row, kept so that processes catching up see the deletion and its id is never
 * handed out again. `version` is the number of the write that last changed the row and `inserted` that of the
 * write that created it (the rows' order). `head` holds the number of the last write: its row lock is the one
 * lock every write takes, so that writes of all processes are applied one at a time, each on the current rows.
 *
 * Version 2: `login_failures`, the failed-login counts by key (a hash of the login, or an app and an address), so
 * that every process throttles a guesser on the count of all (see `oauth/login-guard.ts`).
 *
 * Versions 3 and 4 kept a table of the processes on the schema and their leases, which version 5 drops: every
 * process now reads the write counter before serving (see `postgres.ts`). Version 4 also added `head.pruned`, the
 * highest write whose deletion marks were removed (a process that applied less reloads every row), and an index
 * of each table's marks (see `postgres-prune.ts`).
 *
 * Version 5: `deleted_at` on every table, when a row was deleted, so that marks are pruned by age; `processes`
 * dropped. Servers of an earlier version would fail to write without the table: the migration is refused while
 * any runs on the schema (they keep a row of `processes` with their connection and lease: `running`).
 *
 * Version 6: the tables of events, webhook endpoints and delivery attempts, of the same shape as the others.
 * Servers of version 5 keep working beside it (they neither read nor write these tables).
 *
 * Version 7: `snapshots`, the sandbox's snapshots by name, one JSON document each.
 *
 * Version 8: the table of idempotency keys and the answers they replay (`core/idempotency.ts`), of the same shape
 * as the other collections'. Servers of version 7 keep working beside it (they take no `Idempotency-Key`).
 *
 * Version 9: `rate_limits`, the sandbox's rate limit counts, one row per app and user with its current window
 * (see `postgres-rate-counts.ts`). Servers of version 8 keep working beside it (they limit nothing).
 *
 * Version 10: the sandbox's own state, seen by every process: its fault rules and settings (the clock's offset) as
 * two collections of the same shape as the others, so that the freshness rule brings them to every process and
 * their counters change only in writes; and `request_journal`, the requests the processes answered (UNLOGGED: a
 * test's journal need not survive a crash of the database, and its inserts then cost no WAL). Servers of version 9
 * keep working beside it (they neither read nor write these tables).
 */
import type { ClientBase } from 'pg';
import { StoreError } from '../errors.js';
import type { CollectionName } from '../types.js';
import { SETUP_LIMITS, setLimits } from './postgres-session.js';

/** A schema change: its number (the next one), a name, and its SQL over the schema's quoted name. */
interface Migration {
  version: number;
  name: string;
  sql: (schema: string) => string;
  /**
   * For a change that breaks the servers of the version before it: a query (over the schema's quoted name) of the
   * servers of that version still running on the schema, one row each (`server`, what the message names). The
   * migration is refused while it returns any.
   */
  running?: (schema: string) => string;
}

/** A collection's table and its indexes, as every version since 5 has them. */
const collectionTable = (schema: string, name: CollectionName) => [
  `CREATE TABLE ${schema}.${name} (id text PRIMARY KEY, row json, inserted bigint NOT NULL, version bigint NOT NULL, deleted_at timestamptz)`,
  `CREATE INDEX ${name}_version ON ${schema}.${name} (version)`,
  `CREATE INDEX ${name}_deleted ON ${schema}.${name} (version) WHERE row IS NULL`,
];

/** Tables of version 1, written out: a later collection comes with a migration of its own. */
const VERSION_1_TABLES: readonly CollectionName[] = [
  'users',
  'apps',
  'tokens',
  'codes',
  'shops',
  'products',
  'orders',
  'themes',
  'templates',
  'assets',
  'files',
];

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'a table per collection, the write counter',
    sql: (schema) =>
      [
        `CREATE TABLE ${schema}.head (seq bigint NOT NULL)`,
        `INSERT INTO ${schema}.head (seq) VALUES (0)`,
        ...VERSION_1_TABLES.flatMap((name) => [
          `CREATE TABLE ${schema}.${name} (id text PRIMARY KEY, row json, inserted bigint NOT NULL, version bigint NOT NULL)`,
          `CREATE INDEX ${name}_version ON ${schema}.${name} (version)`,
        ]),
      ].join(';\n'),
  },
  {
    version: 2,
    name: 'failed-login counts',
    sql: (schema) =>
      `CREATE TABLE ${schema}.login_failures (key text PRIMARY KEY, failures integer NOT NULL, last bigint NOT NULL)`,
  },
  {
    version: 3,
    name: 'the processes and their leases',
    sql: (schema) =>
      `CREATE TABLE ${schema}.processes (id text PRIMARY KEY, backend integer NOT NULL, lease_until timestamptz NOT NULL, seen bigint NOT NULL)`,
  },
  {
    version: 4,
    name: 'deletion marks pruned',
    // The write lock first, as a write takes it before a table: processes of version 3 running meanwhile wait
    // for the indexes rather than deadlock with them; the tables every request reads are changed last, briefly.
    sql: (schema) =>
      [
        `SELECT seq FROM ${schema}.head FOR UPDATE`,
        ...VERSION_1_TABLES.map(
          (name) => `CREATE INDEX ${name}_deleted ON ${schema}.${name} (version) WHERE row IS NULL`,
        ),
        // Rows of processes started before: 3. Theirs do not know of pruning (see `PRUNING_VERSION`).
        `ALTER TABLE ${schema}.processes ADD COLUMN schema_version integer NOT NULL DEFAULT 3`,
        `ALTER TABLE ${schema}.head ADD COLUMN pruned bigint NOT NULL DEFAULT 0`,
      ].join(';\n'),
  },
  {
    version: 5,
    name: 'marks pruned by age, no table of processes',
    // Marks already there get no time: they count as old, as pruning would have removed them by now anyway.
    sql: (schema) =>
      [
        `SELECT seq FROM ${schema}.head FOR UPDATE`,
        ...VERSION_1_TABLES.map((name) => `ALTER TABLE ${schema}.${name} ADD COLUMN deleted_at timestamptz`),
        `DROP TABLE ${schema}.processes`,
      ].join(';\n'),
    // Servers of versions 3 and 4 keep a row of `processes` while they run: its `backend` is their listening
    // connection's, open as long as they are, and its lease they renew. A row whose connection is gone and whose
    // lease ran out is a server that died: it writes nothing any more.
    running: (schema) =>
      `SELECT id || ' (backend ' || backend || ')' AS server FROM ${schema}.processes
        WHERE backend IN (SELECT pid FROM pg_stat_activity) OR lease_until > now() ORDER BY id`,
  },
  {
    version: 6,
    name: 'events, webhook endpoints and deliveries',
    sql: (schema) =>
      [
        `SELECT seq FROM ${schema}.head FOR UPDATE`,
        ...(['events', 'webhook_endpoints', 'webhook_deliveries'] as const).flatMap((name) =>
          collectionTable(schema, name),
        ),
      ].join(';\n'),
  },
  {
    version: 7,
    name: "the sandbox's snapshots",
    // `taken_on` as text: it is shown as the process that took it wrote it.
    sql: (schema) =>
      `CREATE TABLE ${schema}.snapshots (name text PRIMARY KEY, taken_on text NOT NULL, data json NOT NULL)`,
  },
  {
    version: 8,
    name: 'idempotency keys and their answers',
    sql: (schema) =>
      [`SELECT seq FROM ${schema}.head FOR UPDATE`, ...collectionTable(schema, 'idempotency_keys')].join(';\n'),
  },
  {
    version: 9,
    name: "the rate limit's counts",
    sql: (schema) =>
      `CREATE TABLE ${schema}.rate_limits (key text PRIMARY KEY, window_start bigint NOT NULL, used integer NOT NULL)`,
  },
  {
    version: 10,
    name: "the sandbox's fault rules, settings and request journal",
    // `method`, `path` and `status` beside the entry: what the journal is filtered by.
    sql: (schema) =>
      [
        `SELECT seq FROM ${schema}.head FOR UPDATE`,
        ...(['fault_rules', 'sandbox_settings'] as const).flatMap((name) => collectionTable(schema, name)),
        `CREATE UNLOGGED TABLE ${schema}.request_journal (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, method text NOT NULL, path text NOT NULL, status integer, entry json NOT NULL)`,
      ].join(';\n'),
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/** A schema name quoted for SQL; only plain names are accepted. */
export function quoteSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,43}$/.test(schema)) {
    throw new StoreError(
      `The PostgreSQL schema must be a lowercase name of at most 44 characters (letters, digits, _), got "${schema}"`,
    );
  }
  return `"${schema}"`;
}

/** The collection's table. Collection names are fixed identifiers (see `collections.ts`). */
export const tableOf = (schema: string, name: CollectionName) => `${schema}.${name}`;

/** The statement reading the version of the schema (quoted): its latest migration, as `version`. */
export const versionSql = (schema: string) => `SELECT max(version) AS version FROM ${schema}.migrations`;

/**
 * Brings the schema to {@link SCHEMA_VERSION} (or `upTo`, an older version, which only tests ask for): creates it
 * when missing, applies the migrations it lacks. Refuses a schema written by a newer version (its tables may have
 * changed in ways this code does not know), and a migration that breaks the servers still running on the schema.
 * Resolves with the migrations applied now.
 */
export async function migrateSchema(client: ClientBase, schemaName: string, upTo = SCHEMA_VERSION): Promise<number[]> {
  const schema = quoteSchema(schemaName);
  await client.query(`BEGIN; ${setLimits(SETUP_LIMITS)}`);
  try {
    // One starter at a time per schema; the others wait and then find it up to date.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`storefront-migrations:${schemaName}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number }>(versionSql(schema));
    const current = rows[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new StoreError(
        `The PostgreSQL schema "${schemaName}" is at version ${current}, written by a newer storefront-server ` +
          `(this one knows up to ${SCHEMA_VERSION}): upgrade this server`,
      );
    }
    const applied: number[] = [];
    for (const migration of MIGRATIONS.filter((m) => m.version > current && m.version <= upTo)) {
      if (migration.running) await refuseWhileRunning(client, schemaName, migration);
      await client.query(migration.sql(schema));
      await client.query(`INSERT INTO ${schema}.migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Throws, naming them, when servers that `migration` would break run on the schema. */
async function refuseWhileRunning(client: ClientBase, schemaName: string, migration: Migration): Promise<void> {
  const { rows } = await client.query<{ server: string }>(migration.running!(quoteSchema(schemaName)));
  if (!rows.length) return;
  const servers = rows.map((row) => row.server).join(', ');
  throw new StoreError(
    `The PostgreSQL schema "${schemaName}" needs migration ${migration.version} (${migration.name}), which breaks ` +
      `the servers of version ${migration.version - 1} still running on it: ${rows.length} (${servers}). ` +
      'Stop them, then start this server again.',
  );
}
