import { describe, expect, it } from 'vitest';
import { FIRST_RETRY_MS, MAX_RETRY_MS, restartDelay } from '../src/cluster/restart-delay.js';

describe('the wait before a worker starts in place of one that exited', () => {
  it('is none after a worker that served, then doubles with each failed start up to the cap', () => {
    const waits = Array.from({ length: 10 }, (_, failedStarts) => restartDelay(failedStarts));
    expect(waits[0]).toBe(0);
    expect(waits[1]).toBe(FIRST_RETRY_MS);
    for (let i = 2; i < waits.length; i++) expect(waits[i]).toBe(Math.min(MAX_RETRY_MS, 2 * waits[i - 1]!));
    expect(waits.at(-1)).toBe(MAX_RETRY_MS);
    expect(restartDelay(1000)).toBe(MAX_RETRY_MS);
  });
});
