/**
 * A fault rule's draws, computed from (seed, n) alone so that every process of a fleet draws a rule's next number
 * from the count stored with it: the same numbers as mulberry32 stepped one at a time, as a single process did.
 */
import { expect, test } from 'vitest';
import { drawAt, seededRandom } from '../../src/sandbox/faults.js';

/** mulberry32 as published, stepping its state. */
function stepped(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('the n-th draw of a seed is the n-th number of mulberry32 stepped, far past where the state wraps', () => {
  for (const seed of [0, 1, 7, 2049, 0x9e3779b9, 2 ** 32 - 1]) {
    const reference = stepped(seed);
    const generator = seededRandom(seed);
    const expected = Array.from({ length: 20_000 }, () => reference());
    expect(Array.from({ length: 20_000 }, (_, n) => drawAt(seed, n))).toEqual(expected);
    expect(Array.from({ length: 20_000 }, () => generator())).toEqual(expected);
  }
});
