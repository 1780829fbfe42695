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

/** Troubles this soon after a line are its incident's: a restart or a terminate cuts every connection at once. */
const INCIDENT_MS = 1000;

/** A `warn` that says each incident once (see {@link saidOnce}). */
export interface SaidOnce {
  /** Says `line`, or holds it until the quiet window closes, or counts it in the incident already said. */
  say(line: string): void;
  /** Says a held line now (the process is stopping: its incident is not lost), then says nothing more. */
  stop(): void;
}

/**
 * `warn`, at most once per {@link SAY_EVERY_MS}: an incident (a database restart cuts every connection at once)
 * is said in one line, not one per connection. A later incident inside the window is said when the window closes,
 * by a timer that never holds the process open; each line says how many troubles were left out since the last.
 */
export function saidOnce(warn: (line: string) => void): SaidOnce {
  let last = Number.NEGATIVE_INFINITY;
  let skipped = 0;
  let held: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const sayNow = (line: string) => {
    last = performance.now();
    warn(skipped ? `${line} (and ${skipped} more connection troubles since)` : line);
    skipped = 0;
    held = undefined;
  };
  const sayHeld = () => {
    timer = undefined;
    if (held !== undefined) sayNow(held);
  };
  return {
    say(line) {
      if (stopped) return;
      const since = performance.now() - last;
      if (since >= SAY_EVERY_MS) return sayNow(line);
      if (since < INCIDENT_MS) {
        skipped++;
        return;
      }
      // A newer trouble inside the window: its line is said when the window closes, the older one counted.
      if (held !== undefined) skipped++;
      held = line;
      timer ??= setTimeout(sayHeld, SAY_EVERY_MS - since).unref();
    },
    stop() {
      clearTimeout(timer);
      sayHeld();
      stopped = true;
    },
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
