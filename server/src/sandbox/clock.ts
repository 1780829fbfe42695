/**
 * The sandbox's clock: the process's time moved by an offset that a test sets or advances. Everything the core
 * dates follows it (token expiry, `updated_on`, webhook retries), since the core reads no other clock.
 */
import type { Clock } from '../core/types.js';

/** A clock that can be set and advanced; it keeps running from where it was put. */
export class SandboxClock implements Clock {
  private offset = 0;

  constructor(private readonly base: Clock) {}

  now(): number {
    return this.base.now() + this.offset;
  }

  /** From now on, the time reads `epochMs` and runs on from there. */
  set(epochMs: number): void {
    this.offset = epochMs - this.base.now();
  }

  /** Moves the time `ms` milliseconds forward (backward when negative). */
  advance(ms: number): void {
    this.offset += ms;
  }
}
