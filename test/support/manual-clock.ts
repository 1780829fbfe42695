/**
 * Clocks for servers and SDK strategies under test: time moves when a test says so, so that token expiry and
 * timestamps are reached without waiting. Methods are closures: they may be passed unbound (`now: clock.now`).
 */

/** A clock a test moves by hand. */
export interface ManualClock {
  /** Milliseconds since the epoch, as the code under test sees them. */
  now(): number;
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
  /** Takes back every {@link ManualClock.advance}. */
  reset(): void;
}

function shifted(base: () => number): ManualClock {
  let offset = 0;
  return {
    now: () => base() + offset,
    advance(ms) {
      offset += ms;
    },
    reset() {
      offset = 0;
    },
  };
}

/** A clock that stands at `start` and moves only when told to. */
export function manualClock(start: number = Date.now()): ManualClock {
  return shifted(() => start);
}

/** Real time plus what the test advanced: for servers whose timestamps must keep moving between requests. */
export function shiftedClock(): ManualClock {
  return shifted(Date.now);
}
