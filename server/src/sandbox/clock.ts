/**
 * The sandbox's clock: the process's time moved by an offset that a test sets or advances. Everything the core
 * dates follows it (token expiry, `updated_on`, webhook retries), since the core reads no other clock. The offset
 * is the store's row `clock` of `sandbox_settings`, so that every process sharing the store (a PostgreSQL fleet)
 * reads the same time: read from memory on each `now()`, written by `set` and `advance`.
 */
import type { Clock } from '../core/types.js';
import type { Store } from '../store/types.js';
import { OwnWrites } from './own-writes.js';
import { clearSetting } from './settings.js';

const ROW = 'clock';

/** A clock that can be set and advanced; it keeps running from where it was put. */
export class SandboxClock implements Clock {
  private readonly own = new OwnWrites<number>();

  constructor(
    private readonly base: Clock,
    private readonly store: Store,
  ) {}

  now(): number {
    return this.base.now() + this.offset();
  }

  /** From now on, the time reads `epochMs` and runs on from there. */
  set(epochMs: number): void {
    const offset = epochMs - this.base.now();
    this.move(offset, () => offset);
  }

  /** Moves the time `ms` milliseconds forward (backward when negative). */
  advance(ms: number): void {
    // Added to the offset as committed when the write runs: two processes advancing at once move it by both.
    this.move(this.offset() + ms, (stored) => stored + ms);
  }

  /** Resolves once the moves made through this clock so far are stored; rejects when one was not. */
  stored(): Promise<void> {
    return this.own.stored();
  }

  /** Back to the process's time, for every process: for a fleet's first process as it starts. */
  async reset(): Promise<void> {
    await clearSetting(this.store, this.own, ROW);
    await this.forgetFuture();
  }

  /**
   * Drops what the fleet counted at times after the clock's now (rate-limit windows, failed logins): after a move
   * back, or a restart (a reset) after a move ahead, they would refuse callers until the clock got there again. A
   * process's own memory of them goes by the same rule (see `rate-limit.ts`, `failure-throttle.ts`).
   */
  private async forgetFuture(): Promise<void> {
    const now = this.now();
    await Promise.all([this.store.rateCounts?.forgetAfter(now), this.store.failures?.forgetAfter(now)]);
  }

  private offset(): number {
    return this.own.read(() => this.store.get('sandbox_settings', ROW)?.offset_ms ?? 0);
  }

  private move(shown: number, next: (stored: number) => number): void {
    this.own.change(shown, async () => {
      // A move forward leaves nothing counted after the new now: only a move back has a future to forget.
      let back = false;
      await this.store.write((tx) => {
        const row = tx.get('sandbox_settings', ROW);
        const before = row?.offset_ms ?? 0;
        const after = next(before);
        back = after < before;
        if (row) tx.update('sandbox_settings', ROW, { offset_ms: after });
        else tx.insert('sandbox_settings', { id: ROW, offset_ms: after });
      });
      if (back) await this.forgetFuture();
    });
  }
}
