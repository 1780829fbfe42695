/**
 * Removing the marks of deleted rows from a PostgreSQL store's tables.
 *
 * A deletion leaves its row as a mark (`row` null, the write's number in `version`, the time in `deleted_at`) so
 * that processes catching up see it. Expired tokens and codes are deleted as new ones come, so on a long-lived
 * sandbox the marks would outnumber the rows. Marks older than an hour are removed, and `head.pruned` records the
 * highest write whose marks went: a process that applied less (one that served no request for that long, or was
 * stopped) cannot learn from the rows what was deleted, so its catch-up reloads every row instead (see
 * `postgres.ts`).
 *
 * Each table keeps the mark with the highest numeric id among its marks: ids come from a sequence above the
 * highest id a table holds, live or marked (`table.ts`), so no id of a deleted row is handed out again. (Among the
 * marks only, so that the search reads the marks' index rather than the table.)
 */
import type pg from 'pg';
import { COLLECTIONS } from '../collections.js';
import { tableOf } from './postgres-schema.js';
import { setLimits, WRITE_LIMITS } from './postgres-session.js';

/** How often each process tries, ms; one at a time per schema, the others skip. */
export const PRUNE_EVERY_MS = 10 * 60_000;
/** How old a mark is before it goes, ms. */
export const KEEP_MARKS_MS = 60 * 60_000;
/** Marks removed per transaction: the write lock is held while they go. */
const BATCH = 5000;

/**
 * Removes the marks older than `olderThanMs`, in transactions of at most {@link BATCH} rows, each holding the
 * write lock. Resolves with the number removed (0 when another process is pruning).
 */
export async function pruneDeleted(
  pool: pg.Pool,
  schema: string,
  schemaName: string,
  olderThanMs = KEEP_MARKS_MS,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await pruneBatch(pool, schema, schemaName, olderThanMs);
    removed += batch;
    if (batch < BATCH) return removed;
  }
}

async function pruneBatch(pool: pg.Pool, schema: string, schemaName: string, olderThanMs: number): Promise<number> {
  const client = await pool.connect();
  let failed: Error | undefined;
  try {
    // A write's limits: pruning holds the write lock as a write does.
    await client.query(`BEGIN; ${setLimits(WRITE_LIMITS)}`);
    const { rows: locked } = await client.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok',
      [`storefront-prune:${schemaName}`],
    );
    if (!locked[0]!.ok) {
      await client.query('ROLLBACK');
      return 0;
    }
    // Ordered with the writes, as a write is: no write commits meanwhile, so the marks and `pruned` agree.
    await client.query(`SELECT seq FROM ${schema}.head FOR UPDATE`);
    let removed = 0;
    let top = 0;
    for (const name of COLLECTIONS) {
      if (removed >= BATCH) break;
      const table = tableOf(schema, name);
      const { rows: gone } = await client.query<{ version: string }>(
        `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM ${table} WHERE row IS NULL
             AND coalesce(deleted_at < now() - $1::int * interval '1 millisecond', true)
             AND id <> coalesce((SELECT id FROM ${table} WHERE row IS NULL AND id ~ '^[1-9][0-9]{0,15}$'
               ORDER BY length(id) DESC, id DESC LIMIT 1), '')
           LIMIT $2))
         RETURNING version`,
        [olderThanMs, BATCH - removed],
      );
      removed += gone.length;
      for (const { version } of gone) top = Math.max(top, Number(version));
    }
    if (removed) await client.query(`UPDATE ${schema}.head SET pruned = greatest(pruned, $1)`, [top]);
    await client.query('COMMIT');
    return removed;
  } catch (error) {
    failed = error as Error;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release(failed);
  }
}
