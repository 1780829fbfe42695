import { HTTPError, type NormalizedOptions } from 'ky';
import { describe, expect, it } from 'vitest';
import { backoff, retryPolicy, serverDelay, sleep } from '../src/http/retry.js';

/** ky's error for a response of `status` with these headers. */
function failed(status: number, headers: Record<string, string> = {}): HTTPError {
  const request = new Request('http://api.test/v1/');
  return new HTTPError(new Response(null, { status, headers }), request, {} as NormalizedOptions);
}

describe('retry policy', () => {
  it("fills the client's defaults over ky's, takes a number as the limit and false as none", () => {
    const policy = retryPolicy(undefined);
    expect(policy).toMatchObject({ limit: 2, backoffLimit: 30_000, maxRetryAfter: 30_000, retryOnTimeout: true });
    expect([1, 2, 3].map((n) => policy.delay(n))).toEqual([300, 600, 1200]);
    expect(policy.methods).toEqual(['get', 'head', 'put', 'delete', 'options']);
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

  it('follows Retry-After in seconds or as an HTTP date, capped', () => {
    const policy = retryPolicy({ delay: (n) => 100 * 2 ** (n - 1), maxRetryAfter: 10_000 });
    const now = Date.parse('Sat, 21 Nov 2026 09:00:00 GMT');
    const after = (value: string) => serverDelay(policy, failed(503, { 'retry-after': value }), now);
    expect(after('3')).toBe(3000);
    expect(after('Sat, 21 Nov 2026 09:00:05 GMT')).toBe(5000);
    expect(after('Sat, 21 Nov 2026 08:00:00 GMT')).toBe(0);
    expect(after('3600')).toBe(10_000);
    // Unreadable: the client backs off instead (ky alone would wait `maxRetryAfter`).
    expect(after('soon')).toBeUndefined();
  });

  it('waits as the server asks only on afterStatusCodes, reading the rate limit headers ky reads', () => {
    const policy = retryPolicy({ afterStatusCodes: [429] });
    expect(serverDelay(policy, failed(429, { 'retry-after': '2' }))).toBe(2000);
    expect(serverDelay(policy, failed(503, { 'retry-after': '2' }))).toBeUndefined();
    expect(serverDelay(policy, failed(429, { 'ratelimit-reset': '1' }))).toBe(1000);
    expect(serverDelay(policy, failed(429))).toBeUndefined();
  });

  it('sleeps until aborted', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    await expect(sleep(0)).resolves.toBeUndefined();
  });
});
