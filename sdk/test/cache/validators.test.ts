import { describe, expect, it } from 'vitest';
import type { CacheEntry } from '../../src/cache/types.js';
import { conditionalHeaders, isStorable, revalidated, revalidationChanged } from '../../src/cache/validators.js';

const stored: CacheEntry = {
  url: 'https://api.test/v1/themes/3',
  status: 200,
  headers: {
    etag: '"a"',
    'last-modified': 'Sat, 21 Nov 2026 05:00:00 GMT',
    'content-type': 'application/json; charset=utf-8',
    'content-length': '120',
    'x-oauth-scopes': 'admin',
  },
  body: '{"id":"3"}',
  storedAt: 1,
};

describe('validators', () => {
  it('sends both validators, so that a same-second change is caught by the ETag', () => {
    expect(conditionalHeaders(stored)).toEqual({
      'if-none-match': '"a"',
      'if-modified-since': 'Sat, 21 Nov 2026 05:00:00 GMT',
    });
    expect(conditionalHeaders({ ...stored, headers: { etag: 'W/"b"' } })).toEqual({ 'if-none-match': 'W/"b"' });
  });

  it('refreshes a stored copy from a 304 without touching the headers that describe the body', () => {
    const after = revalidated(
      stored,
      { 'Last-Modified': 'Sat, 21 Nov 2026 05:00:01 GMT', 'content-length': '0', 'x-oauth-scopes': 'admin,public' },
      42,
    );
    expect(after.storedAt).toBe(42);
    expect(after.body).toBe(stored.body);
    expect(after.headers['last-modified']).toBe('Sat, 21 Nov 2026 05:00:01 GMT');
    expect(after.headers['content-length']).toBe('120');
    expect(after.headers['x-oauth-scopes']).toBe('admin,public');
    expect(stored.storedAt).toBe(1);
  });

  it('stores only 200s with a validator and without no-store or Vary: *', () => {
    expect(isStorable(200, { etag: '"a"', 'cache-control': 'must-revalidate, private, max-age=0' })).toBe(true);
    expect(isStorable(200, { 'last-modified': 'x' })).toBe(true);
    expect(isStorable(304, { etag: '"a"' })).toBe(false);
    expect(isStorable(200, {})).toBe(false);
    expect(isStorable(200, { etag: '"a"', 'cache-control': 'No-Store' })).toBe(false);
    expect(isStorable(200, { etag: '"a"', vary: '*' })).toBe(false);
  });
});

describe('revalidationChanged', () => {
  it('is false when a 304 moved only the Date, true when it changed anything else', () => {
    const later = revalidated(stored, { date: 'Mon, 1 Jan 2024 00:00:09 GMT' }, 2);
    expect(revalidationChanged(stored, later)).toBe(false);
    expect(revalidationChanged(stored, revalidated(stored, { 'x-oauth-scopes': 'public' }, 2))).toBe(true);
    expect(revalidationChanged(stored, revalidated(stored, { etag: '"b"' }, 2))).toBe(true);
  });

  it('is false when a 304 moved only the headers of its exchange: request id and rate limit fields', () => {
    const exchange = {
      'X-Request-Id': 'r2',
      RateLimit: '"default";r=9;t=60',
      'RateLimit-Policy': '"default";q=10;w=60',
    };
    const first = revalidated(stored, exchange, 2);
    expect(revalidationChanged(stored, first)).toBe(false);
    const next = revalidated(first, { 'x-request-id': 'r3', ratelimit: '"default";r=8;t=59' }, 3);
    expect(revalidationChanged(first, next)).toBe(false);
    expect(next.headers['x-request-id']).toBe('r3');
    expect(revalidationChanged(first, revalidated(first, { 'x-request-id-extra': 'x' }, 3))).toBe(true);
  });
});
