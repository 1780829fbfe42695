/**
 * A fault rule's draws, computed from (seed, n) alone so that every process of a fleet draws a rule's next number
 * from the count stored with it: the same numbers as mulberry32 stepped one at a time, as a single process did.
 */
import { expect, test } from 'vitest';
import { drawAt, FaultSet, seededRandom } from '../../src/sandbox/faults.js';
import { createMemoryStore } from '../../src/store/memory.js';

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

test("a seeded rule hits by its own draws, whatever an earlier rule's draws hit first", async () => {
  const alone = seededRandom(7);
  const wouldHit = Array.from({ length: 40 }, () => alone() < 0.5);
  for (const earlierSeed of [1, 2, 3, 4]) {
    const faults = new FaultSet(createMemoryStore());
    const earlier = faults.add({ kind: 'status', status: 500, probability: 0.5, seed: earlierSeed });
    const seeded = faults.add({ kind: 'status', status: 503, probability: 0.5, seed: 7 });
    const decided: (string | undefined)[] = [];
    for (let i = 0; i < 40; i++) decided.push((await faults.decide('GET', '/v1/x'))?.rule);
    // Where the earlier rule let the request by, the seeded one decided as it would alone.
    const missed = decided.flatMap((rule, i) => (rule === earlier.id ? [] : [i]));
    expect(missed.length).toBeGreaterThan(5);
    expect(missed.map((i) => decided[i] === seeded.id)).toEqual(missed.map((i) => wouldHit[i]));
    expect(decided.filter((rule) => rule === earlier.id).length).toBeGreaterThan(5);
  }
});

test('a delay rule that would hit after an earlier rule hit draws its delay too, and keeps its hits for later', async () => {
  const faults = new FaultSet(createMemoryStore());
  faults.add({ kind: 'status', status: 500, times: 1 });
  const delay = faults.add({ kind: 'delay', delay_ms: [0, 100], probability: 0.9, seed: 11, times: 1 });
  expect((await faults.decide('GET', '/v1/x'))?.kind).toBe('answer');
  // Alone, seed 11 hits both requests (draws 0 and 2, below 0.9), each hit drawing its delay (draws 1 and 3).
  const draws = Array.from({ length: 4 }, (_, n) => drawAt(11, n));
  expect([draws[0]! < 0.9, draws[2]! < 0.9]).toEqual([true, true]);
  const decision = await faults.decide('GET', '/v1/x');
  expect(decision).toMatchObject({ kind: 'delay', rule: delay.id });
  expect((decision as { ms: number }).ms).toBeCloseTo(draws[3]! * 100, 9);
  expect(faults.list().find((rule) => rule.id === delay.id)).toMatchObject({ hits: 1, times: 0 });
});
