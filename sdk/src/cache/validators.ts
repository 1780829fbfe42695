/**
 * HTTP caching rules the transport applies around the {@link HttpCache} (RFC 9111): what may be stored,
 * which validators a revalidation sends, and how a 304 refreshes a stored copy.
 */
import type { CacheEntry } from './types.js';

/**
 * Whether a GET response may be stored: a 200 that carries a validator (`ETag` or `Last-Modified`) and neither
 * `Cache-Control: no-store` nor `Vary: *`. `private` is fine: this cache belongs to one client and is partitioned
 * per token owner.
 */
export function isStorable(status: number, headers: Readonly<Record<string, string>>): boolean {
  if (status !== 200) return false;
  if (headers.etag === undefined && headers['last-modified'] === undefined) return false;
  // Members of comma-separated lists: `no-store` with or without a value, `*` alone.
  return (
    !/(^|,)\s*no-store\s*(=|,|$)/i.test(headers['cache-control'] ?? '') &&
    !/(^|,)\s*\*\s*(,|$)/.test(headers.vary ?? '')
  );
}

/**
 * The headers that revalidate a stored copy: both validators whenever the copy has them. `If-None-Match` is what
 * catches a change made within the same second as the copy (`Last-Modified` has one-second granularity), and
 * `If-Modified-Since` serves servers that only compare dates.
 */
export function conditionalHeaders(entry: CacheEntry): Record<string, string> {
  const headers: Record<string, string> = {};
  if (entry.headers.etag !== undefined) headers['if-none-match'] = entry.headers.etag;
  if (entry.headers['last-modified'] !== undefined) headers['if-modified-since'] = entry.headers['last-modified'];
  return headers;
}

/** Headers a 304 must not overwrite on the stored copy: they describe the stored body, not the validation. */
const BODY_HEADERS = new Set(['content-length', 'content-encoding', 'content-type', 'transfer-encoding']);

/**
 * The stored copy refreshed by a 304 (RFC 9111 §4.3.4): the 304's headers replace the stored ones (new `Date`,
 * validators, `X-OAuth-Scopes`…) except those that describe the body, and `storedAt` becomes `now`.
 */
export function revalidated(entry: CacheEntry, notModified: Readonly<Record<string, string>>, now: number): CacheEntry {
  const headers = { ...entry.headers };
  for (const [name, value] of Object.entries(notModified)) {
    const key = name.toLowerCase();
    if (!BODY_HEADERS.has(key)) headers[key] = value;
  }
  return { ...entry, headers, storedAt: now };
}

/**
 * Headers that tell of one exchange, not of the representation: every answer brings new ones (`X-Request-Id`, the
 * rate limit's count), so a 304 that moved only these changed nothing worth storing.
 */
const EXCHANGE_HEADERS = /^(date|x-request-id|ratelimit(-policy)?)$/;

/**
 * Whether a 304 changed what is stored beyond the headers of its exchange (`Date`, `X-Request-Id`, `RateLimit`…):
 * when it did not (the usual case), writing the copy back would only move a body that did not change, which for a
 * shared store (Redis) is most of a cached read's cost. The reply still shows the 304's own headers.
 */
export function revalidationChanged(stored: CacheEntry, refreshed: CacheEntry): boolean {
  const names = new Set([...Object.keys(stored.headers), ...Object.keys(refreshed.headers)]);
  for (const name of names) {
    if (!EXCHANGE_HEADERS.test(name) && stored.headers[name] !== refreshed.headers[name]) return true;
  }
  return false;
}

/** The entry's strong ETag, which names one representation byte for byte; `undefined` for a weak one or none. */
export function strongEtag(entry: CacheEntry): string | undefined {
  const etag = entry.headers.etag;
  return etag !== undefined && !etag.startsWith('W/') ? etag : undefined;
}

/** Whether a 304 with this `ETag` is about the stored copy: a strong tag must be the stored one (RFC 9111 §4.3.4). */
export function isAbout(entry: CacheEntry, etag: string | null): boolean {
  return !etag || etag.startsWith('W/') || etag === entry.headers.etag;
}
