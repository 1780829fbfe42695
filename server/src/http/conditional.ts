/**
 * Preconditions evaluated by our own code (RFC 9110 §13.2.2), never by a framework's `fresh` check:
 * fetch clients add `Cache-Control: no-cache` to revalidations and such checks then answer 200.
 */
import type { HeaderReader } from '../core/types.js';
import type { Entity } from './entity.js';
import { parseHttpDate } from './http-date.js';
import { HttpError } from './http-error.js';

/** Entity tags of a list header (`If-Match`, `If-None-Match`); `*` stays `*`. */
function entityTags(value: string): string[] {
  return value.match(/(?:W\/)?"[^"]*"|\*/g) ?? [];
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * Whether a GET or HEAD may be answered 304: `If-None-Match` (weak comparison) when present, else
 * `If-Modified-Since` at second granularity. Call only when the response would otherwise be 200.
 */
export function isNotModified(headers: HeaderReader, entity: Entity): boolean {
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    const current = opaque(entity.etag);
    return entityTags(ifNoneMatch).some((tag) => tag === '*' || opaque(tag) === current);
  }
  const ifModifiedSince = headers.get('if-modified-since');
  if (ifModifiedSince === null) return false;
  const since = parseHttpDate(ifModifiedSince.trim());
  return since !== undefined && !changedAfter(entity, since);
}

/** Whether the representation may have changed after `since` (epoch ms of an HTTP date, whole seconds). */
function changedAfter(entity: Entity, since: number): boolean {
  return entity.lastModified > since || (entity.lastModified === since && entity.weakLastModified === true);
}

/**
 * Throws 412 when an `If-Match` (strong comparison) or, without one, an `If-Unmodified-Since` fails
 * against the resource's current representation (`undefined`: the resource does not exist).
 * Call from PUT and DELETE handlers before changing anything.
 */
export function assertPreconditions(headers: HeaderReader, current: Entity | undefined): void {
  const ifMatch = headers.get('if-match');
  if (ifMatch !== null) {
    const ok =
      current !== undefined &&
      entityTags(ifMatch).some((tag) => tag === '*' || (!tag.startsWith('W/') && tag === current.etag));
    if (!ok) throw new HttpError(412, 'Precondition failed: the resource has changed (If-Match)');
    return;
  }
  const ifUnmodifiedSince = headers.get('if-unmodified-since');
  if (ifUnmodifiedSince === null || current === undefined) return;
  const since = parseHttpDate(ifUnmodifiedSince.trim());
  if (since !== undefined && changedAfter(current, since)) {
    throw new HttpError(412, 'Precondition failed: the resource has changed (If-Unmodified-Since)');
  }
}
