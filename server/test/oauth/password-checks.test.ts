/**
 * Password checks run one at a time, so that a flood of guessed logins takes one core (and, in Node, one thread of
 * libuv's pool) however large it is. (bench/server-oauth.bench.ts measures what that buys.)
 */
import { describe, expect, it, vi } from 'vitest';

/** scrypt runs under way, and the most seen at once. */
const runs = vi.hoisted(() => ({ now: 0, most: 0 }));

vi.mock('../../src/shared/scrypt.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/shared/scrypt.js')>();
  return {
    ...original,
    scryptAsync: async (...args: Parameters<typeof original.scryptAsync>) => {
      runs.now++;
      runs.most = Math.max(runs.most, runs.now);
      try {
        return await original.scryptAsync(...args);
      } finally {
        runs.now--;
      }
    },
  };
});

const { hashPassword, passwordChecks, verifyPassword } = await import('../../src/oauth/secrets.js');
const { Semaphore } = await import('../../src/oauth/semaphore.js');

describe('password checks', () => {
  it('run one scrypt at a time, however many are asked for at once, and each still answers right', async () => {
    const stored = hashPassword('right');
    runs.most = 0;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => verifyPassword(i === 3 ? 'right' : `wrong ${i}`, stored)),
    );
    expect(answers).toEqual([false, false, false, true, false, false]);
    expect(runs.most).toBe(1);
    expect(passwordChecks.limit).toBe(1);
  });
});

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, in the order they came, passing a turn on after a failure too', async () => {
    const semaphore = new Semaphore(2);
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 5 }, (_, i) =>
      semaphore.run(
        () =>
          new Promise<number>((resolve, reject) => {
            started.push(i);
            releases[i] = () => (i === 0 ? reject(new Error('first fails')) : resolve(i));
          }),
      ),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    releases[0]!();
    await expect(tasks[0]).rejects.toThrow('first fails');
    expect(started).toEqual([0, 1, 2]);
    releases[1]!();
    releases[2]!();
    await Promise.all([tasks[1], tasks[2]]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    releases[3]!();
    releases[4]!();
    expect(await Promise.all(tasks.slice(1))).toEqual([1, 2, 3, 4]);
  });
});
