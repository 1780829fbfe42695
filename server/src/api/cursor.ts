/**
 * Cursors of keyset paging: the `after` parameter of a list's `next` link names the last item of the page
 * before it by its sort key and id, and the next page starts right after that place in the list as it is now.
 * Rows created or deleted elsewhere in the list then shift no other row into or out of the pages still to
 * come, as offsets would. The token is opaque to clients (base64url of `[field, key, id]`) but not secret:
 * any well-formed one merely names a place in the list, so it is validated, not signed.
 */
import { API_LIMITS, decodeBase64Url, encodeBase64Url } from '@storefront-platform/sdk/internal';
import { badRequest } from '../http/http-error.js';
import { comparePositions, type ListOrder, type Position, positionOf } from './list-order.js';
import { single } from './query.js';

/** The query parameter that carries a cursor. */
export const CURSOR_PARAMETER = 'after';

/** Longer than any cursor the server writes (a key is at most a title); bounds the work a forged one causes. */
const MAX_LENGTH = API_LIMITS.cursorLength;

/** A request's cursor: the token as sent, and the place it names. */
export interface Cursor {
  token: string;
  place: Position;
}

function encode(field: string, { key, id }: Position): string {
  return encodeBase64Url(new TextEncoder().encode(JSON.stringify([field, key, id])));
}

/** The cursor naming `row`'s place in `order`. */
export function cursorAfter<R extends { id: string }>(order: ListOrder<R>, row: R): string {
  return encode(order.field, positionOf(order, row));
}

function parse(token: string): unknown {
  const bytes = token.length <= MAX_LENGTH ? decodeBase64Url(token) : undefined;
  if (!bytes) return undefined;
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

/**
 * The request's cursor, `undefined` without one, its token re-encoded so that links and cache keys are
 * canonical. 400 when it is not a cursor of this list's order: malformed, altered, or written for another
 * `sort` (the filters may change along a walk: the place stays meaningful).
 */
export function readCursor<R>(query: URLSearchParams, order: ListOrder<R>): Cursor | undefined {
  const token = single(query, CURSOR_PARAMETER);
  if (token === undefined) return undefined;
  const value = parse(token);
  if (Array.isArray(value) && value.length === 3) {
    const [field, key, id] = value as unknown[];
    const keyFits = typeof key === order.type && (typeof key === 'string' || Number.isFinite(key));
    if (field === order.field && keyFits && typeof id === 'string' && id !== '') {
      const place = { key: key as string | number, id, n: Number(id) };
      return { token: encode(field, place), place };
    }
  }
  throw badRequest(`Query parameter ${CURSOR_PARAMETER} is not a cursor of this list in this order`);
}

/** Index of the first of `rows` (sorted in `order`) that comes after `place`: a binary search. */
export function indexAfter<R extends { id: string }>(rows: readonly R[], order: ListOrder<R>, place: Position): number {
  const sign = order.descending ? -1 : 1;
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sign * comparePositions(positionOf(order, rows[middle]!), place) > 0) high = middle;
    else low = middle + 1;
  }
  return low;
}
