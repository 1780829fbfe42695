import { HttpError, readRetryAfter } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';

const now = Date.parse('Sat, 21 Nov 2026 09:00:00 GMT');
const after = (value: string) => readRetryAfter(new Headers({ 'retry-after': value }), Infinity, now);

describe('readRetryAfter', () => {
  it('reads delay-seconds and the three forms of an HTTP date (RFC 9110), a date past being 0', () => {
    expect(after('0')).toBe(0);
    expect(after('3')).toBe(3000);
    expect(after('3600')).toBe(3_600_000);
    expect(after('Sat, 21 Nov 2026 09:00:05 GMT')).toBe(5000);
    expect(after('Saturday, 21-Nov-26 09:00:05 GMT')).toBe(5000);
    expect(after('Sat, 21 Nov 2026 08:00:00 GMT')).toBe(0);
  });

  it('reads neither a number of another form nor what is not a date', () => {
    // Date.parse would take each of the first three for a day in 2001.
    for (const value of ['1.5', '-3', '+3', '1e3', '0x10', 'soon', '2026-11-21', '']) {
      expect(after(value), value).toBeUndefined();
    }
  });

  it('reads a number past 2024 in epoch ms as epoch seconds, as ky does (GitHub sends X-RateLimit-Reset so)', () => {
    expect(readRetryAfter(new Headers({ 'x-ratelimit-reset': String(now / 1000 + 7) }), Infinity, now)).toBe(7000);
  });

  it('reads the rate limit headers in order when Retry-After is absent; the first present decides', () => {
    expect(readRetryAfter(new Headers({ 'x-rate-limit-reset': '4', 'ratelimit-reset': '2' }))).toBe(2000);
    expect(readRetryAfter(new Headers({ 'retry-after': 'soon', 'ratelimit-reset': '2' }))).toBeUndefined();
    expect(readRetryAfter(new Headers())).toBeUndefined();
  });

  it('caps the wait at max, and reads an HttpError through Headers, against the clock by default', () => {
    expect(after('3600')).toBe(3_600_000);
    expect(readRetryAfter(new Headers({ 'retry-after': '3600' }), 30_000)).toBe(30_000);
    const error = new HttpError({
      method: 'GET',
      url: 'http://api.test/',
      status: 429,
      headers: { 'retry-after': '9' },
    });
    expect(readRetryAfter(new Headers(error.headers))).toBe(9000);
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(readRetryAfter(new Headers({ 'retry-after': inAMinute }))).toBeGreaterThan(58_000);
    expect(after('Infinity')).toBeUndefined();
  });
});
