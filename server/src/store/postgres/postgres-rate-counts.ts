/**
 * The rate limit's counts in a PostgreSQL store (`rate_limits`), shared by every process on the schema so that a
 * fleet holds one quota per app and user (see `http/rate-limit.ts`): one upsert per key per turn of the event loop,
 * adding the turn's requests of that key at once (an upsert per request cost a read 5× its CPU), outside a
 * transaction (the row lock of `ON CONFLICT … DO UPDATE` orders concurrent upserts of one key), so any server
 * connection of a pooler serves it. The n requests of an upsert that brought the count to `used` are handed
 * `used - n + 1` to `used`: each count once, across the fleet as before. A row per app and user, replaced in place as windows pass: the table does not grow with time.
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
  const text = `INSERT INTO ${schema}.rate_limits AS r (key, window_start, used) VALUES ($1, $2, $3)
    ON CONFLICT (key) DO UPDATE SET
      used = CASE WHEN excluded.window_start > r.window_start THEN excluded.used ELSE r.used + excluded.used END,
      window_start = GREATEST(r.window_start, excluded.window_start)
    RETURNING used`;
  /** This turn's requests, by window and key: each waits for its count. */
  let pending = new Map<string, { key: string; windowStart: number; waiting: Waiting[] }>();
  const upsert = async ({ key, windowStart, waiting }: { key: string; windowStart: number; waiting: Waiting[] }) => {
    try {
      const { rows } = await pool.query<{ used: number }>(text, [key, windowStart, waiting.length]);
      const first = rows[0]!.used - waiting.length + 1;
      for (const [i, { resolve }] of waiting.entries()) resolve(first + i);
    } catch (error) {
      const failure = unavailable('the rate limit counts', error);
      for (const { reject } of waiting) reject(failure);
    }
  };
  const flush = () => {
    const batches = pending;
    pending = new Map();
    for (const batch of batches.values()) void upsert(batch);
  };
  return {
    add(key, windowStart) {
      return new Promise((resolve, reject) => {
        if (pending.size === 0) setImmediate(flush);
        const id = `${windowStart} ${key}`;
        const batch = pending.get(id) ?? { key, windowStart, waiting: [] };
        pending.set(id, batch);
        batch.waiting.push({ resolve, reject });
      });
    },
  };
}

/** A request waiting for its count. */
interface Waiting {
  resolve(used: number): void;
  reject(error: Error): void;
}
