/**
 * What the sandbox clock asks the fleet's shared counts to forget: the future of a move back (or a reset), and
 * nothing on a move forward, which leaves no count after the new now (two DELETEs per move on PostgreSQL otherwise).
 */
import { expect, it } from 'vitest';
import { SandboxClock } from '../../src/sandbox/clock.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { SharedFailures, SharedRateCounts } from '../../src/store/types.js';

it('forgets what was counted after the new time on a move back or a reset, and nothing on a move forward', async () => {
  const forgotten: [string, number][] = [];
  const rateCounts: SharedRateCounts = {
    add: async () => 1,
    forgetAfter: async (epochMs) => void forgotten.push(['rate', epochMs]),
  };
  const failures: SharedFailures = {
    read: async () => new Map(),
    fail: async () => ({ failures: 1, last: 0 }),
    clear: async () => {},
    forgetAfter: async (epochMs) => void forgotten.push(['failures', epochMs]),
  };
  const store = Object.assign(createMemoryStore(), { rateCounts, failures });
  const clock = new SandboxClock({ now: () => 1_000_000 }, store);

  clock.advance(60_000);
  clock.set(2_000_000);
  await clock.stored();
  expect(forgotten).toEqual([]);

  clock.advance(-30_000);
  await clock.stored();
  expect(forgotten).toEqual([
    ['rate', 1_970_000],
    ['failures', 1_970_000],
  ]);

  forgotten.length = 0;
  clock.set(1_500_000);
  await clock.stored();
  expect(forgotten).toEqual([
    ['rate', 1_500_000],
    ['failures', 1_500_000],
  ]);

  forgotten.length = 0;
  await clock.reset();
  expect(forgotten).toEqual([
    ['rate', 1_000_000],
    ['failures', 1_000_000],
  ]);
});
