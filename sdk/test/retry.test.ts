import { describe, expect, it } from 'vitest';
import { retryDelay, retryPolicy, sleep } from '../src/http/retry.js';

describe('retry policy', () => {
  it('fills defaults, takes a number as the limit and false as none', () => {
    expect(retryPolicy(undefined)).toMatchObject({ limit: 2, delay: 300, maxDelay: 30_000 });
    expect(retryPolicy(undefined).methods).toEqual(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
    expect(retryPolicy(5).limit).toBe(5);
    expect(retryPolicy(false).limit).toBe(0);
    expect(retryPolicy({ statuses: [503] })).toMatchObject({ limit: 2, statuses: [503] });
  });

  it('backs off exponentially up to the cap', () => {
    const policy = retryPolicy({ delay: 100, maxDelay: 1000 });
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(policy, n, null))).toEqual([100, 200, 400, 800, 1000]);
  });

  it('follows Retry-After in seconds or as an HTTP date, capped', () => {
    const policy = retryPolicy({ delay: 100, maxDelay: 10_000 });
    const now = Date.parse('Sat, 21 Nov 2026 09:00:00 GMT');
    expect(retryDelay(policy, 1, '3', now)).toBe(3000);
    expect(retryDelay(policy, 1, 'Sat, 21 Nov 2026 09:00:05 GMT', now)).toBe(5000);
    expect(retryDelay(policy, 1, 'Sat, 21 Nov 2026 08:00:00 GMT', now)).toBe(0);
    expect(retryDelay(policy, 1, '3600', now)).toBe(10_000);
    expect(retryDelay(policy, 2, 'soon', now)).toBe(200);
  });

  it('sleeps until aborted', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    await expect(sleep(0)).resolves.toBeUndefined();
  });
});
