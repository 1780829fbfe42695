/**
 * Failed attempts counted per key, with exponential backoff: the first few failures cost nothing, each one
 * after them doubles the wait before the next attempt is checked, up to a cap. Backoff rather than a fixed
 * window, so that a user who mistypes a few times waits seconds, not the rest of a window, while a guessing
 * run slows geometrically (with the login policy: 5 free guesses, 10 more in the next 17 minutes, then 4 an
 * hour). Time comes from the injectable clock, so that tests move it instead of sleeping.
 */

import { Lru } from '@storefront-platform/sdk/internal';
import type { Clock } from '../core/types.js';

/** How a throttle counts. */
export interface BackoffPolicy {
  /** Failures allowed without any wait. */
  free: number;
  /** The wait after the first failure past `free`; it doubles with each further failure. */
  baseMs: number;
  /** The longest wait. */
  maxMs: number;
  /** A key without a failure for this long starts over (past every wait, so that waiting out the cap gains nothing). */
  forgetMs: number;
  /** Whether a success clears its key. */
  resetOnSuccess: boolean;
}

/** What became of an attempt. */
export type AttemptOutcome = 'success' | 'failure' | 'error';

interface Entry {
  failures: number;
  /** Attempts begun and not yet ended. */
  inFlight: number;
  /** No attempt is checked before this instant. */
  until: number;
  /** The last failure. */
  last: number;
}

/**
 * Keys remembered at most, past it the least recently used go. Keys are short (a hash, an id and an address),
 * so this bounds the memory a flood of made-up logins can take.
 */
const CAPACITY = 10_000;

export class FailureThrottle {
  private readonly entries = new Lru<string, Entry>({ maxEntries: CAPACITY });

  constructor(
    private readonly clock: Clock,
    private readonly policy: BackoffPolicy,
  ) {}

  /** Whole seconds until an attempt under `key` may be checked; 0 when it may be checked now. */
  wait(key: string): number {
    const now = this.clock.now();
    const entry = this.live(key, now);
    if (!entry) return 0;
    if (entry.until > now) return Math.ceil((entry.until - now) / 1000);
    // Attempts under way count as failures until they end: otherwise a burst sent at once would all be
    // checked before the first one failed. Past the free ones, then, one attempt is checked at a time.
    if (entry.inFlight > 0 && entry.failures + entry.inFlight >= this.policy.free) return 1;
    return 0;
  }

  /** An attempt under `key` starts; {@link end} must follow. */
  begin(key: string): void {
    const now = this.clock.now();
    const entry = this.live(key, now) ?? { failures: 0, inFlight: 0, until: 0, last: now };
    entry.inFlight++;
    this.entries.set(key, entry);
  }

  /** The attempt ends: a failure counts and may start a wait; an error (no answer on the password) does not count. */
  end(key: string, outcome: AttemptOutcome): void {
    const now = this.clock.now();
    // The entry object itself, even if evicted meanwhile: re-inserted below.
    const entry = this.entries.peek(key) ?? { failures: 0, inFlight: 1, until: 0, last: now };
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    if (outcome === 'failure') {
      entry.failures++;
      entry.last = now;
      const { free, baseMs, maxMs } = this.policy;
      if (entry.failures >= free) entry.until = now + Math.min(maxMs, baseMs * 2 ** (entry.failures - free));
    } else if (outcome === 'success' && this.policy.resetOnSuccess) {
      if (entry.inFlight === 0) {
        this.entries.delete(key);
        return;
      }
      entry.failures = 0;
      entry.until = 0;
    }
    this.entries.set(key, entry);
  }

  /**
   * Failures of `key` counted by other processes too (a shared store): the count becomes `failures` when that is
   * more than this process counted, with the wait it calls for after `last`.
   */
  adopt(key: string, failures: number, last: number): void {
    const now = this.clock.now();
    if (now - last > this.policy.forgetMs || this.movedBack(last, now)) return;
    const entry = this.live(key, now) ?? { failures: 0, inFlight: 0, until: 0, last };
    if (failures <= entry.failures) return;
    entry.failures = failures;
    entry.last = Math.max(entry.last, last);
    const { free, baseMs, maxMs } = this.policy;
    if (failures >= free)
      entry.until = Math.max(entry.until, entry.last + Math.min(maxMs, baseMs * 2 ** (failures - free)));
    this.entries.set(key, entry);
  }

  /**
   * Whether a failure at `last` was counted on a clock since moved back past every wait (a sandbox's, set back after
   * a move ahead): it says nothing of guessing now, and would otherwise hold the key until the clock gets there
   * again. A few milliseconds ahead (another process's clock) is not that.
   */
  private movedBack(last: number, now: number): boolean {
    return last - now > this.policy.maxMs;
  }

  /**
   * The entry of `key`, unless it has been quiet long enough to be forgotten, or is of a clock moved back; its wait
   * never past the cap from now (one that ends later was decided on a clock since moved back).
   */
  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry) entry.until = Math.min(entry.until, now + this.policy.maxMs);
    if (
      entry &&
      entry.inFlight === 0 &&
      (this.movedBack(entry.last, now) || (entry.until <= now && now - entry.last > this.policy.forgetMs))
    ) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
