/**
 * The PostgreSQL store's write path. Writes of every process are applied one at a time, each on the current rows:
 * `begin` opens a transaction under the write limits ({@link WRITE_LIMITS}), takes the row lock of the schema's
 * `head` and catches the replica up on that connection; only then does the write's function run, and `persist`
 * writes the changed rows as the next write number and commits. So what the function checks (a token not yet
 * exchanged, a code not yet redeemed, the `updated_on` a client last saw, a free id) holds in the database when
 * the write commits, whichever process it lands on. A write is acknowledged once committed.
 *
 * A failed commit leaves memory as it was; if it did commit after all (a connection lost in the middle), the next
 * write or `sync()` reads it back like another process's.
 */
import type pg from 'pg';
import type { PendingWrite, Persistence } from '../engine.js';
import { StoreError } from '../errors.js';
import type { CollectionName, Collections } from '../types.js';
import type { Replica } from './postgres-replica.js';
import { writeRows } from './postgres-rows.js';
import { setLimits, WRITE_LIMITS } from './postgres-session.js';

type AnyRow = Collections[CollectionName];

/** Writes through `pool` to `schema` (quoted); `fail` names a failure after the database (a 503's error). */
export function writeThrough(
  pool: pg.Pool,
  schema: string,
  replica: Replica,
  fail: (what: string, error: unknown) => StoreError,
): Persistence {
  // One round trip each (a simple query of several statements): a write's cost is mostly its round trips.
  const beginSql = `BEGIN; ${setLimits(WRITE_LIMITS)}; SELECT seq FROM ${schema}.head FOR UPDATE`;
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
      const release = await replica.hold();
      let client: pg.PoolClient | undefined;
      try {
        client = await pool.connect();
        const results = (await client.query(beginSql)) as unknown as pg.QueryResult<{ seq: string }>[];
        const head = Number(results.at(-1)!.rows[0]!.seq);
        if (head > replica.seen) await replica.catchUp(client, head);
        session = { client, release };
      } catch (error) {
        if (client) {
          await client.query('ROLLBACK').catch(() => undefined);
          client.release(error as Error);
        }
        release();
        throw error instanceof StoreError ? error : fail('cannot begin a write', error);
      }
    },
    async persist(write: PendingWrite) {
      const client = session!.client;
      const seq = replica.seen + 1;
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
        // `seq` is a number, nothing here needs quoting.
        await end(`UPDATE ${schema}.head SET seq = ${seq}; COMMIT`);
        replica.committed(seq);
      } catch (error) {
        await end('ROLLBACK', error as Error).catch(() => undefined);
        // A row the store refuses (StoreError) is a bug of the caller's, not an unavailable database.
        throw error instanceof StoreError ? error : fail('the write was not confirmed', error);
      }
    },
    async abandon() {
      await end('ROLLBACK').catch(() => undefined);
    },
  };
}
