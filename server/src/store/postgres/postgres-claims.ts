/**
 * Claims (`Store.claim`) in a PostgreSQL store: a row held against every other process on the schema while this
 * one works on it — a webhook attempt in flight (`webhooks/deliverer.ts`). PostgreSQL holds it, no protocol of our
 * own: a transaction on a connection of a small pool of the claims' own takes `pg_try_advisory_xact_lock` on a
 * 64-bit key of the schema, the collection and the row id, then reads the row as committed; `release()` ends the
 * transaction, and with it the lock. A process that dies or is cut off mid-attempt loses its connection, and the
 * database ends its transaction and lock with it; one that stops (SIGSTOP, a paused VM) has its transaction ended
 * after {@link CLAIM_HOLD_MS} idle. Either way another process may then make the attempt: at most one repeat.
 *
 * Why not `SELECT … FOR UPDATE SKIP LOCKED` on the row itself: the attempt's outcome is recorded through the
 * store's write path, on another connection (under the `head` lock, like every write), and that write updates the
 * same row: it would wait for the claim's own row lock until the claim is released, which waits for the write.
 * An advisory lock locks no row, so the write goes through while the claim holds.
 *
 * The pool is the claims' own (size {@link DEFAULT_CLAIM_CONNECTIONS}, the delivery loop's default concurrency), so
 * attempts in flight never take the connections the store's writes and reads need. Its failures are told (the
 * store's `warn`, said once per incident: `postgres-session.ts`) and make `claim` reject: the delivery loop takes a
 * rejection for "not claimed now" and looks again later.
 *
 * Behind a connection pooler: the lock is the transaction's, and a pooler keeps a transaction on one server
 * connection until it ends, in transaction pooling too; its limits are `SET LOCAL` in the batch that takes it.
 */
import type pg from 'pg';
import type { Claim, CollectionName, Collections } from '../types.js';
import { tableOf } from './postgres-schema.js';
import { openPool, setLimits, WRITE_LIMITS } from './postgres-session.js';

/** Connections the claims of one process use at most, by default: the delivery loop's default concurrency. */
export const DEFAULT_CLAIM_CONNECTIONS = 8;
/**
 * How long a claim may stay idle in its transaction, ms: an attempt's 15 s limit (events.md) plus the write that
 * records its outcome (which waits for the write lock at most 4 s), with a margin. The store's own sessions allow
 * 2 s, which an attempt would outlast.
 */
export const CLAIM_HOLD_MS = 30_000;
/** Seed of `hashtextextended` for claim keys: a key space apart from the other advisory locks (`hashtext`). */
const KEY_SEED = 0x5f0c1a1d;

/** Options of {@link openClaims}. */
export interface ClaimOptions {
  /** The connections' limit. Default {@link DEFAULT_CLAIM_CONNECTIONS}. */
  connections?: number;
  /** How long a claim may stay idle in its transaction, ms. Default {@link CLAIM_HOLD_MS}. */
  holdMs?: number;
}

/** The claims of one store. */
export interface Claims {
  claim<C extends CollectionName>(collection: C, id: string): Promise<Claim<Collections[C]> | undefined>;
  /** Ends the pool once the claims taken are released. */
  close(): Promise<void>;
}

/**
 * Claims on the schema `schemaName` (quoted: `schema`) of the database at `connectionString`, whose failures are
 * told to `tell`. Connects on the first claim.
 */
export function openClaims(
  connectionString: string,
  schema: string,
  schemaName: string,
  tell: (what: string, error: unknown) => void,
  options: ClaimOptions = {},
): Claims {
  const holdMs = options.holdMs ?? CLAIM_HOLD_MS;
  const pool = openPool({
    connectionString,
    name: `storefront-server ${process.pid} claims`,
    max: options.connections ?? DEFAULT_CLAIM_CONNECTIONS,
    tell,
  });
  /** What each connection holds now, for the message when it is lost. */
  const holding = new WeakMap<pg.PoolClient, string>();
  pool.on('connect', (client) =>
    client.on('error', (error) => {
      const held = holding.get(client);
      if (held) tell(`lost the connection holding the claim of ${held} (another process may repeat it)`, error);
    }),
  );

  return {
    async claim<C extends CollectionName>(collection: C, id: string) {
      const what = `${collection} ${id}`;
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        tell(`cannot claim ${what}`, error);
        throw error;
      }
      const key = client.escapeLiteral(`storefront-claim:${schemaName}:${collection}:${id}`);
      const literalId = client.escapeLiteral(id);
      let results: pg.QueryResult[];
      try {
        // One round trip. The row is read by a statement after the lock's, so under READ COMMITTED its snapshot
        // is taken once the lock is held: it shows whatever the previous holder committed before releasing.
        results = (await client.query(
          `BEGIN; ${setLimits({ ...WRITE_LIMITS, idle: holdMs })};
           SELECT pg_try_advisory_xact_lock(hashtextextended(${key}, ${KEY_SEED})) AS locked;
           SELECT row FROM ${tableOf(schema, collection)} WHERE id = ${literalId}`,
        )) as unknown as pg.QueryResult[];
      } catch (error) {
        tell(`cannot claim ${what}`, error);
        await client.query('ROLLBACK').catch(() => undefined);
        client.release(error as Error);
        throw error;
      }
      if (!results.at(-2)!.rows[0].locked) {
        await end(client, 'ROLLBACK', what);
        return undefined;
      }
      holding.set(client, what);
      const row = (results.at(-1)!.rows[0]?.row ?? undefined) as Collections[C] | undefined;
      let released: Promise<void> | undefined;
      return {
        row,
        release() {
          released ??= end(client, 'COMMIT', what);
          return released;
        },
      };
    },
    close: () => pool.end(),
  };

  /** Ends the claim's transaction and returns the connection (dropped when it failed). */
  async function end(client: pg.PoolClient, sql: string, what: string): Promise<void> {
    let failed: Error | undefined;
    try {
      await client.query(sql);
    } catch (error) {
      // The transaction is gone with its connection (cut, or held past `holdMs`): so was the lock.
      failed = error as Error;
      tell(`the claim of ${what} ended with its connection`, error);
      throw error;
    } finally {
      holding.delete(client);
      client.release(failed);
    }
  }
}
