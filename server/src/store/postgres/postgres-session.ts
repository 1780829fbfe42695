/**
 * How the PostgreSQL store's connections are opened, limited and watched, in a way a connection pooler in between
 * (PgBouncer in transaction or session mode, the pooler in front of most hosted PostgreSQL) keeps:
 *
 * - Nothing but the user, database and `application_name` goes in the startup packet: PgBouncer refuses other
 *   startup parameters (`unsupported startup parameter: statement_timeout`). The database's limits are set with
 *   `SET LOCAL` at the start of each transaction, in the batch that opens it (no round trip of their own), so they
 *   end with it and never stay on a server connection the pooler lends to another client.
 * - No named prepared statements: under transaction pooling the next statement may reach another server
 *   connection, where the name is unknown.
 * - Nothing session-scoped (session advisory locks, LISTEN, `SET`): only transaction-scoped locks, held by the
 *   transaction, which a pooler keeps on one server connection until it ends.
 *
 * A statement outside a transaction (the write counter's read, the failed-login counts) has no database limits; the
 * client gives up on it after `query_timeout`.
 */
import type pg from 'pg';
import { Pool } from './postgres-driver.js';

/** What the client allows, ms: a query after `query_timeout`, connecting after `connectionTimeoutMillis`. */
const CLIENT_LIMITS = { query_timeout: 30_000, connectionTimeoutMillis: 5000, keepAlive: true } as const;

/** The database's limits of one transaction, ms. */
export interface TransactionLimits {
  /** The transaction is rolled back when its client stays idle in it this long (its process stopped or stuck). */
  idle: number;
  /** A statement waits for a lock this long at most. */
  lock: number;
  /** A statement runs this long at most. */
  statement: number;
}

/**
 * A write's limits. A process stopped inside a write (SIGSTOP, a paused VM) has its transaction rolled back after
 * 2 s idle; a write waits for the write lock at most 4 s, longer than that, so that it gets the lock of a stopped
 * holder rather than a refusal; a statement runs 10 s at most.
 */
export const WRITE_LIMITS: TransactionLimits = { idle: 2000, lock: 4000, statement: 10_000 };

/** The limits while the data opens (migrations, a seed, every row loaded): on a big data set these take longer. */
export const SETUP_LIMITS: TransactionLimits = { idle: 300_000, lock: 300_000, statement: 300_000 };

/** `SET LOCAL` statements for `limits`, to follow `BEGIN` in the batch that opens a transaction. */
export function setLimits(limits: TransactionLimits): string {
  return [
    `SET LOCAL idle_in_transaction_session_timeout = ${Math.ceil(limits.idle)}`,
    `SET LOCAL lock_timeout = ${Math.ceil(limits.lock)}`,
    `SET LOCAL statement_timeout = ${Math.ceil(limits.statement)}`,
  ].join('; ');
}

/** At most one line per this many ms; what was left out is counted in the next. */
const SAY_EVERY_MS = 10_000;

/**
 * `warn`, at most once per {@link SAY_EVERY_MS}: an incident (a database restart cuts every connection at once)
 * is said in one line, not one per connection; the next line says how many were left out.
 */
export function saidOnce(warn: (line: string) => void): (line: string) => void {
  let last = Number.NEGATIVE_INFINITY;
  let skipped = 0;
  return (line) => {
    const now = performance.now();
    if (now - last < SAY_EVERY_MS) {
      skipped++;
      return;
    }
    last = now;
    warn(skipped ? `${line} (and ${skipped} more connection troubles since)` : line);
    skipped = 0;
  };
}

/** What {@link openPool} needs. */
export interface PoolOptions {
  connectionString: string;
  /** Its connections' `application_name`: what `pg_stat_activity` shows. */
  name: string;
  max: number;
  /** Where an idle connection's loss is told (see {@link saidOnce}). */
  tell: (what: string, error: unknown) => void;
}

/**
 * A pool of connections with an error listener on each: node-postgres emits 'error' on a client whose connection
 * dies, checked out or idle, and an 'error' without a listener ends the process. A checked-out client's query
 * rejects with the error, which its caller handles; an idle one's loss (a database restart, a failover,
 * `pg_terminate_backend`) is told, and the pool drops the client: the next request opens another.
 */
export function openPool({ connectionString, name, max, tell }: PoolOptions): pg.Pool {
  const pool = new Pool({ connectionString, max, application_name: name, ...CLIENT_LIMITS });
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', (error) => tell('the database closed an idle connection (the next request opens another)', error));
  return pool;
}
