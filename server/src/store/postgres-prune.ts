/**
 * Removing the marks of deleted rows from a PostgreSQL store's tables.
 *
 * A deletion leaves its row as a mark (`row` null, the write's number in `version`) so that processes catching
 * up see it. Expired tokens and codes are deleted as new ones come, so on a long-lived sandbox the marks would
 * outnumber the rows. Once every member of the fleet (a process holding a lease, see `postgres-fleet.ts`) has
 * applied a deletion, its mark is removed, and `head.pruned` records the highest write whose marks went: a
 * process that applied less (one whose lease lapsed meanwhile: stopped, cut off) cannot learn from the rows what
 * was deleted, so its catch-up reloads every row instead (see `postgres.ts`).
 *
 * Each table keeps the mark with the highest numeric id among its marks: ids come from a sequence above the
 * highest id a table holds, live or marked (`table.ts`), so no id of a deleted row is handed out again. (Among the
 * marks only, so that the search reads the marks' index rather than the table.)
 */
import type pg from 'pg';
import { COLLECTIONS } from './collections.js';
import { tableOf } from './postgres-schema.js';

/** How often each process tries, ms; one at a time per schema, the others skip. */
export const PRUNE_EVERY_MS = 10 * 60_000;
/** Marks removed per transaction: the write lock is held while they go. */
const BATCH = 5000;

/**
 * Removes the marks every member applied, in transactions of at most {@link BATCH} rows, each holding the write
 * lock. `horizonSql` reads the last write every member applied (`Fleet.horizonSql`). Resolves with the number
 * removed (0 when another process is pruning).
 */
export async function pruneDeleted(
  pool: pg.Pool,
  schema: string,
  schemaName: string,
  horizonSql: string,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await pruneBatch(pool, schema, schemaName, horizonSql);
    removed += batch;
    if (batch < BATCH) return removed;
  }
}

async function pruneBatch(pool: pg.Pool, schema: string, schemaName: string, horizonSql: string): Promise<number> {
  const client = await pool.connect();
  let failed: Error | undefined;
  try {
    await client.query('BEGIN');
    const { rows: locked } = await client.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok',
      [`storefront-prune:${schemaName}`],
    );
    if (!locked[0]!.ok) {
      await client.query('ROLLBACK');
      return 0;
    }
    // Ordered with the writes, as a write is: no write commits meanwhile, so the horizon and `pruned` agree.
    await client.query(`SELECT seq FROM ${schema}.head FOR UPDATE`);
    const { rows } = await client.query<{ horizon: string | null }>(horizonSql);
    const horizon = rows[0]!.horizon;
    let removed = 0;
    let top = 0;
    for (const name of COLLECTIONS) {
      if (horizon === null || removed >= BATCH) break;
      const table = tableOf(schema, name);
      const { rows: gone } = await client.query<{ version: string }>(
        `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM ${table} WHERE row IS NULL AND version <= $1
             AND id <> coalesce((SELECT id FROM ${table} WHERE row IS NULL AND id ~ '^[1-9][0-9]{0,15}$'
               ORDER BY length(id) DESC, id DESC LIMIT 1), '')
           LIMIT $2))
         RETURNING version`,
        [horizon, BATCH - removed],
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
