/**
 * The failed-login counts of a PostgreSQL store (`login_failures`), shared by every process on the schema so that
 * each throttles a guesser on the count of all (see `oauth/login-guard.ts`): one statement each, outside a
 * transaction, so any server connection of a pooler serves them.
 */
import type pg from 'pg';
import type { SharedFailures } from '../types.js';

/** The counts in `schema` (quoted), through `pool`. */
export function sharedFailures(pool: pg.Pool, schema: string): SharedFailures {
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
    async forgetAfter(epochMs) {
      await pool.query(`DELETE FROM ${schema}.login_failures WHERE last > $1::bigint`, [epochMs]);
    },
  };
}
