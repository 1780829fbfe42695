/**
 * Pacing: each authorization's rate budget, read from the answers' rate limit fields, so that the client holds a
 * request back before the server's limit instead of meeting a 429 after it, queued requests included. One budget
 * per token owner, as the server counts one quota per app and user; `createRedisRateBudget` (the `redis` entry)
 * shares it across a fleet, with the same rules in one Redis script.
 *
 * The rules, for a server counting fixed windows: a request takes one of what is left, or waits for the window's
 * end. What is left starts from the answers: before the first one, a single request goes (a probe) and the others
 * wait for its answer, whose fields start the budget, or whose silence (a server without a limit) lets every
 * request through for as long as answers keep coming without fields (a minute past the last one). Later answers only lower what is left (one from an earlier
 * window is ignored) and bring the window's end closer. When the end passes, the policy's quota is left again;
 * requests sent in the last moments before it (the window's end is known to a second and a round trip) may count
 * in the next window, so they are taken from it too.
 */
import { Lru } from '../shared/lru.js';
import type { RateLimitReading } from './rate-limit-fields.js';

/** Where a client keeps the rate budget of each authorization (`ClientOptions.pacing`). */
export interface RateBudget {
  /**
   * Takes one request from the budget of `owner` (a token owner): resolves 0 when it may be sent now, else the
   * milliseconds to wait before asking again.
   */
  take(owner: string): Promise<number> | number;
  /**
   * What an attempt of a request of `owner` said of the limit: its answer's reading; `null` for a successful answer
   * (2xx, 3xx) without rate limit fields (the server limits nothing, or no longer); `undefined` when it tells
   * nothing (an error status without fields, no answer: a network failure, an abort). `latencyMs`, its round trip.
   */
  observe(owner: string, reading: RateLimitReading | null | undefined, latencyMs: number): Promise<void> | void;
}

/** How long a probe's answer is waited for before another request probes. */
export const PROBE_MS = 5_000;
/** How long a server that answered without fields is taken to have no limit. */
export const FREE_MS = 60_000;
/** The longest wait before asking again while a probe is out. */
export const POLL_MS = 100;

interface Budget {
  /** Requests left in the window; `undefined`: not known (no answer with fields yet). */
  left?: number;
  /** Epoch ms when the window ends, at the latest. */
  end: number;
  /** How long before `end` the window may end already: requests sent then may count in the next one. */
  guard: number;
  /** Requests sent within `guard` of `end`. */
  late: number;
  quota?: number;
  windowMs?: number;
  /** While a probe is out: no other request goes before its answer, or this instant. */
  probe: number;
  /** A server without a limit: every request goes until this instant. */
  free: number;
}

/** Owners whose budget is kept at most. */
const CAPACITY = 1000;

/**
 * The rate budget of one process, in memory: the client's default. For several processes acting on one
 * authorization, `createRedisRateBudget` from `@storefront-platform/sdk/redis`.
 */
export function createRateBudget(now: () => number = Date.now): RateBudget {
  const budgets = new Lru<string, Budget>({ maxEntries: CAPACITY });
  const budgetOf = (owner: string) => {
    const budget = budgets.get(owner) ?? { end: 0, guard: 0, late: 0, probe: 0, free: 0 };
    budgets.set(owner, budget);
    return budget;
  };
  return {
    take(owner) {
      const at = now();
      const budget = budgetOf(owner);
      if (budget.left !== undefined && at >= budget.end) {
        if (budget.quota === undefined) budget.left = undefined;
        else {
          // The window's end was known no closer than `guard`: the next one may have begun that much earlier.
          budget.guard += at - budget.end;
          budget.left = budget.quota - budget.late;
          budget.late = 0;
          budget.end = at + budget.windowMs!;
        }
      }
      if (budget.left === undefined) {
        if (at < budget.free) return 0;
        if (at < budget.probe) return Math.min(budget.probe - at, POLL_MS);
        budget.probe = at + PROBE_MS;
        return 0;
      }
      if (budget.left <= 0) return budget.end - at;
      budget.left--;
      if (at >= budget.end - budget.guard) budget.late++;
      return 0;
    },
    observe(owner, reading, latencyMs) {
      const at = now();
      const budget = budgetOf(owner);
      if (!reading) {
        if (budget.left === undefined) budget.free = at + FREE_MS;
        // A server that had a limit and now answers without fields has none (a sandbox's turned off): the budget is
        // forgotten, and the next request probes again.
        else if (reading === null) budgets.delete(owner);
        return;
      }
      if (reading.quota !== undefined) {
        budget.quota = reading.quota;
        budget.windowMs = reading.windowSeconds! * 1000;
      }
      const end = at + reading.resetSeconds * 1000;
      const half = (budget.windowMs ?? reading.resetSeconds * 1000) / 2;
      if (budget.left !== undefined && end < budget.end - half) return;
      if (budget.left === undefined || end > budget.end + half) {
        // The first answer with fields (the probe's), or one of a window this budget has not reached yet.
        Object.assign(budget, { left: reading.remaining, end, guard: 1000 + latencyMs, late: 0, probe: 0, free: 0 });
        return;
      }
      budget.left = Math.min(budget.left, reading.remaining);
      if (end < budget.end) Object.assign(budget, { end, guard: 1000 + latencyMs });
    },
  };
}
