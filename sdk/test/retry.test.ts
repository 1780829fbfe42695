import { describe, expect, it } from 'vitest';
import { backoff, retryPolicy, sleep } from '../src/http/retry.js';

describe('retry policy', () => {
  it("fills the client's defaults over ky's, takes a number as the limit and false as none", () => {
    const policy = retryPolicy(undefined);
    expect(policy).toMatchObject({ limit: 2, backoffLimit: 30_000, maxRetryAfter: 30_000, retryOnTimeout: true });
    expect([1, 2, 3].map((n) => policy.delay(n))).toEqual([300, 600, 1200]);
    expect(policy.methods).toEqual(['get', 'head', 'put', 'delete', 'options', 'post']);
    expect(policy.statusCodes).toEqual([408, 429, 500, 502, 503, 504]);
    expect(retryPolicy(5).limit).toBe(5);
    expect(retryPolicy(false).limit).toBe(0);
    expect(retryPolicy({ statusCodes: [503] })).toMatchObject({ limit: 2, statusCodes: [503] });
  });

  it("lays the client's options over the instance's, and reads undefined fields as not given", () => {
    expect(retryPolicy({ backoffLimit: 5 }, { limit: 7, backoffLimit: 9 })).toMatchObject({
      limit: 7,
      backoffLimit: 5,
    });
    expect(retryPolicy(undefined, 4).limit).toBe(4);
    expect(retryPolicy({ limit: undefined }, 4).limit).toBe(4);
  });

  it('backs off exponentially up to the cap', () => {
    const policy = retryPolicy({ delay: (n) => 100 * 2 ** (n - 1), backoffLimit: 1000 });
    expect([1, 2, 3, 4, 5].map((n) => backoff(policy, n))).toEqual([100, 200, 400, 800, 1000]);
  });

  it('sleeps until aborted', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    await expect(sleep(0)).resolves.toBeUndefined();
  });
});
