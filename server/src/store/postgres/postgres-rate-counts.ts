/**
 * The rate limit's counts in a PostgreSQL store (`rate_limits`), shared by every process on the schema so that a
 * fleet holds one quota per app and user (see `http/rate-limit.ts`): one upsert per request, outside a transaction
 * (the row lock of `ON CONFLICT … DO UPDATE` orders concurrent requests of one key), so any server connection of a
 * pooler serves it. A row per app and user, replaced in place as windows pass: the table does not grow with time.
 */
import type pg from 'pg';
import type { SharedRateCounts } from '../types.js';

/**
 * The counts in `schema` (quoted), through `pool`; a statement that fails rejects with what `unavailable` makes of
 * it (a `StoreUnavailableError`: the request is answered 503, as when the database cannot be read).
 */
export function sharedRateCounts(
  pool: pg.Pool,
  schema: string,
  unavailable: (what: string, error: unknown) => Error,
): SharedRateCounts {
  // A process whose clock lags names an earlier window than the row's: its request counts in the row's window,
  // which it cannot move back.
  const text = `INSERT INTO ${schema}.rate_limits AS r (key, window_start, used) VALUES ($1, $2, 1)
    ON CONFLICT (key) DO UPDATE SET
      used = CASE WHEN excluded.window_start > r.window_start THEN 1 ELSE r.used + 1 END,
      window_start = GREATEST(r.window_start, excluded.window_start)
    RETURNING used`;
  return {
    async add(key, windowStart) {
      try {
        const { rows } = await pool.query<{ used: number }>(text, [key, windowStart]);
        return rows[0]!.used;
      } catch (error) {
        throw unavailable('the rate limit counts', error);
      }
    },
  };
}
