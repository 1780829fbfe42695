/**
 * Preconditions evaluated by our own code (RFC 9110 §13.2.2), never by a framework's `fresh` check:
 * fetch clients add `Cache-Control: no-cache` to revalidations and such checks then answer 200.
 */
import type { HeaderReader } from '../core/types.js';
import { type Entity, GZIP_ETAG_SUFFIX, gzipEtag } from './entity.js';
import { parseHttpDate } from './http-date.js';
import { HttpError } from './http-error.js';

/** What preconditions are checked against: a representation's validators, not its bytes. */
export type Validators = Omit<Entity, 'body'>;

/** Entity tags of a list header (`If-Match`, `If-None-Match`); `*` stays `*`. */
function entityTags(value: string): string[] {
  return value.match(/(?:W\/)?"[^"]*"|\*/g) ?? [];
}

/**
 * The tag of the resource's state a client's tag names: without `W/`, and without the suffix of the gzip
 * representation (its own strong tag, RFC 9110 §8.8.3), so that a client holding either coding matches.
 */
function stateTag(tag: string): string {
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  return opaque.endsWith(GZIP_ETAG_SUFFIX) ? `${opaque.slice(0, -GZIP_ETAG_SUFFIX.length)}"` : opaque;
}

/** The tag of `tags` that matches `current` (`*` matches any), for If-None-Match's weak comparison. */
function weakMatch(tags: readonly string[], current: Validators): string | undefined {
  return tags.find((tag) => tag === '*' || stateTag(tag) === current.etag);
}

/** Whether the representation may have changed after `since` (epoch ms of an HTTP date, whole seconds). */
function changedAfter(entity: Validators, since: number): boolean {
  return entity.lastModified > since || (entity.lastModified === since && entity.weakLastModified === true);
}

/**
 * Steps 3 and 4 of §13.2.2 for a GET or HEAD that would be answered 200: the tag of `If-None-Match` that
 * matched (`*` included), or `If-Modified-Since` (only without `If-None-Match`) at second granularity; `undefined`
 * when the representation must be sent. The matched tag is what the 304 echoes (the gzip one when the client
 * holds that).
 */
export function notModifiedTag(headers: HeaderReader, entity: Entity): string | undefined {
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    const tag = weakMatch(entityTags(ifNoneMatch), entity);
    if (tag === undefined) return undefined;
    return tag.endsWith(GZIP_ETAG_SUFFIX) ? gzipEtag(entity.etag) : entity.etag;
  }
  const ifModifiedSince = headers.get('if-modified-since');
  if (ifModifiedSince === null) return undefined;
  const since = parseHttpDate(ifModifiedSince.trim());
  return since !== undefined && !changedAfter(entity, since) ? entity.etag : undefined;
}

/** Whether a GET or HEAD that would be answered 200 may be answered 304 instead (see {@link notModifiedTag}). */
export function isNotModified(headers: HeaderReader, entity: Entity): boolean {
  return notModifiedTag(headers, entity) !== undefined;
}

const failed = (header: string) =>
  new HttpError(412, `Precondition failed: ${header} does not hold for the resource's current state`);

/**
 * Steps 1 and 2 of §13.2.2, for every method: throws 412 when `If-Match` (strong comparison; `*` needs a current
 * representation) fails, or, without `If-Match`, when `If-Unmodified-Since` is older than the last change.
 * `current` is the target's representation, `undefined` when it has none.
 */
export function assertUnchanged(headers: HeaderReader, current: Validators | undefined): void {
  const ifMatch = headers.get('if-match');
  if (ifMatch !== null) {
    const ok =
      current !== undefined &&
      entityTags(ifMatch).some((tag) => tag === '*' || (!tag.startsWith('W/') && stateTag(tag) === current.etag));
    if (!ok) throw failed('If-Match');
    return;
  }
  const ifUnmodifiedSince = headers.get('if-unmodified-since');
  if (ifUnmodifiedSince === null || current === undefined) return;
  const since = parseHttpDate(ifUnmodifiedSince.trim());
  if (since !== undefined && changedAfter(current, since)) throw failed('If-Unmodified-Since');
}

/**
 * Every precondition of §13.2.2, in its order, for a request that changes the target (PUT, POST, DELETE): steps 1
 * and 2, then `If-None-Match` (`*`: the target must not exist, which is how a client says "create only"), which
 * fails with 412 for these methods. Call before changing anything, and again where the change is decided.
 */
export function assertPreconditions(headers: HeaderReader, current: Validators | undefined): void {
  assertUnchanged(headers, current);
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null && current !== undefined && weakMatch(entityTags(ifNoneMatch), current) !== undefined) {
    throw failed('If-None-Match');
  }
}

/**
 * The current representation of the target of a POST that adds a new member to a collection (a webhook endpoint):
 * none, since the member does not exist yet. The POSTs that create or replace by name check what the name holds
 * instead (`api/guarded-write.ts`, `preconditionsOn`).
 */
export const NO_REPRESENTATION = undefined;
