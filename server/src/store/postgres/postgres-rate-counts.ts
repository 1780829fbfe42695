/**
 * The rate limit's counts in a PostgreSQL store (`rate_limits`), shared by every process on the schema so that a
 * fleet holds one quota per app and user (see `http/rate-limit.ts`). A row per app and user, replaced in place as
 * windows pass: the table does not grow with time.
 *
 * Counts are taken ahead: the upsert that counts a key's waiting requests also adds a few more, which this process
 * then hands to its next requests of that key in that window without a round trip. The upsert adds n and returns
 * the total, so the process owns the counts from `used - n + 1` to `used`: every count is handed out once across
 * the fleet, and no process lets a request through past the quota, whatever the others do. What a process took
 * ahead and did not hand out is lost with the window (it counted as used for the others), so it takes little:
 * at most twice the requests it counted for the key in the window so far (a key read now and then takes nothing
 * ahead), at most 1/64 of what was left of the quota when it last looked (near the quota, nothing: the last
 * requests are counted one by one, as exactly as without), and at most {@link MAX_AHEAD}. A read with the limit
 * on then costs a round trip per block of counts rather than per turn of the event loop: `npm run bench --
 * server-api` measured 1.06× to 1.13× the server CPU per read of the limit off, against 1.31× to 1.47× with an
 * upsert per turn.
 *
 * One upsert per key at a time in a process; requests that arrive meanwhile are served from what it took, else
 * wait for the next, which counts them all at once. The statement runs outside a transaction (the row lock of
 * `ON CONFLICT … DO UPDATE` orders concurrent upserts of one key), so any server connection of a pooler serves it.
 */
import { Lru } from '@storefront-platform/sdk/internal';
import type { SharedRateCounts } from '../types.js';
import type { GuardedQuery } from './postgres-driver.js';

/** Counts taken ahead at most per upsert: what a process that stops can leave unused in a window. */
const MAX_AHEAD = 1024;
/** What a process takes ahead at most, as a share of the quota left: 1/64. */
const SHARE_OF_LEFT = 64;
/** Keys whose counts a process holds at most; past it the least recently used go (their counts unused). */
const CAPACITY = 10_000;

/** A request waiting for its count. */
interface Waiting {
  windowStart: number;
  quota: number;
  resolve(used: number): void;
  reject(error: unknown): void;
}

/** One key's counts in this process. */
interface KeyCounts {
  /** The window of the row as the last upsert returned it (epoch ms). */
  windowStart: number;
  /** The next count this process may hand out in that window, up to `end` included. */
  next: number;
  /** The last count this process owns: the row's total when it last looked. */
  end: number;
  /** Requests of the key this process counted in the window. */
  counted: number;
  /** Whether an upsert of the key is on its way. */
  sending: boolean;
  waiting: Waiting[];
}

/**
 * The counts in `schema` (quoted), through `query`, whose failures reject as the store's (a `StoreUnavailableError`:
 * the request is answered 503, as when the database cannot be read).
 */
export function sharedRateCounts(query: GuardedQuery, schema: string): SharedRateCounts {
  // A process whose clock lags names an earlier window than the row's: its request counts in the row's window,
  // which it cannot move back; the row's window comes back, so that the process knows which window it holds.
  const text = `INSERT INTO ${schema}.rate_limits AS r (key, window_start, used) VALUES ($1, $2, $3)
    ON CONFLICT (key) DO UPDATE SET
      used = CASE WHEN excluded.window_start > r.window_start THEN excluded.used ELSE r.used + excluded.used END,
      window_start = GREATEST(r.window_start, excluded.window_start)
    RETURNING used, window_start`;
  const keys = new Lru<string, KeyCounts>({ maxEntries: CAPACITY });

  /** Hands `windowStart`'s next held count of `counts`, if it holds one. */
  const held = (counts: KeyCounts, windowStart: number): number | undefined => {
    if (windowStart !== counts.windowStart || counts.next > counts.end) return undefined;
    counts.counted++;
    return counts.next++;
  };

  const send = async (key: string, counts: KeyCounts) => {
    const waiting = counts.waiting;
    counts.waiting = [];
    counts.sending = true;
    const n = waiting.length;
    // The latest window and policy asked: a request that waited across a window's end counts in the next one.
    const windowStart = waiting.reduce((latest, request) => Math.max(latest, request.windowStart), 0);
    const quota = waiting[n - 1]!.quota;
    const seen = windowStart === counts.windowStart ? counts : { end: 0, counted: 0 };
    const ahead = Math.max(
      0,
      Math.min(MAX_AHEAD, 2 * (seen.counted + n), Math.floor((quota - seen.end - n) / SHARE_OF_LEFT)),
    );
    try {
      const { rows } = await query<{ used: number; window_start: string }>(text, [key, windowStart, n + ahead]);
      const used = rows[0]!.used;
      const first = used - n - ahead + 1;
      for (const [i, { resolve }] of waiting.entries()) resolve(first + i);
      const rowWindow = Number(rows[0]!.window_start);
      const counted = rowWindow === counts.windowStart ? counts.counted + n : n;
      Object.assign(counts, { windowStart: rowWindow, next: first + n, end: used, counted });
    } catch (failure) {
      for (const { reject } of waiting) reject(failure);
    } finally {
      counts.sending = false;
      // Those that came meanwhile: from what was just taken, the rest in the next upsert.
      const later = counts.waiting;
      counts.waiting = [];
      for (const request of later) {
        const count = held(counts, request.windowStart);
        if (count === undefined) counts.waiting.push(request);
        else request.resolve(count);
      }
      if (counts.waiting.length) void send(key, counts);
    }
  };

  return {
    async forgetAfter(epochMs) {
      await query(`DELETE FROM ${schema}.rate_limits WHERE window_start > $1`, [epochMs]);
    },
    add(key, windowStart, quota) {
      let counts = keys.get(key);
      if (!counts) {
        counts = { windowStart, next: 1, end: 0, counted: 0, sending: false, waiting: [] };
        keys.set(key, counts);
      }
      const count = held(counts, windowStart);
      if (count !== undefined) return Promise.resolve(count);
      const own = counts;
      return new Promise((resolve, reject) => {
        own.waiting.push({ windowStart, quota, resolve, reject });
        // Once the event loop has taken in this turn's requests, so that one upsert counts them all.
        if (!own.sending && own.waiting.length === 1) setImmediate(() => void send(key, own));
      });
    },
  };
}
