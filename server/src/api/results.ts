/**
 * Results entities (wire contract, "Results entities"): one page of an already filtered and sorted list,
 * with `total_items`, `page`, `per_page`, `_embedded.items` and the paging links that apply.
 *
 * A page is found by offset (`page`) or, in the `next` links the server writes, by cursor (`after`, see
 * `cursor.ts`), so that a walk over `next` neither repeats nor skips rows that others' writes shift.
 */

import type { RepresentationName } from '@storefront-platform/sdk/internal';
import { API_LIMITS } from '@storefront-platform/sdk/internal';
import type { Addresses } from '../core/types.js';
import type { LatestChange } from '../http/collection-changes.js';
import type { Entity } from '../http/entity.js';
import { toSeconds } from '../http/http-date.js';
import type { Call, Reply } from '../http/route.js';
import type { CollectionName } from '../store/types.js';
import { CURSOR_PARAMETER, type Cursor, cursorAfter, indexAfter, readCursor } from './cursor.js';
import { type Hal, halEntity, link, type ResultsLinks, results } from './hal.js';
import type { ListOrder } from './list-order.js';
import { integer } from './query.js';

/** Which page of a list a request asks for. */
export interface Paging {
  /** 1-based. With a cursor, it counts the pages of the walk and does not choose the rows. */
  page: number;
  perPage: number;
  /** Where the page starts, when the request carries a cursor. */
  after?: Cursor;
}

/**
 * `page`, `per_page` and `after` of a request (400 when `page` and `per_page` are not positive integers,
 * `per_page` is over 100, or `after` is not a cursor of `order`).
 */
function readPaging<R>(query: URLSearchParams, order: ListOrder<R>): Paging {
  const paging: Paging = {
    page: integer(query, 'page', 1, API_LIMITS.maxPage, 1),
    perPage: perPage(query),
  };
  const after = readCursor(query, order);
  return after ? { ...paging, after } : paging;
}

/** `per_page` of a request, within the API's limits (400 outside them). */
export function perPage(query: URLSearchParams): number {
  const { min, max, default: fallback } = API_LIMITS.perPage;
  return integer(query, 'per_page', min, max, fallback);
}

/** A filtered, sorted list and how to present it. */
export interface Listing<R, N extends RepresentationName = RepresentationName> {
  /** The representation of its members, e.g. `productSummary`. */
  representation: N;
  /** The list's URL without query. */
  href: string;
  /** The filter as query parameters in a fixed order (no paging), so that every link is canonical. */
  params: readonly [string, string][];
  /** The order of `rows`. */
  order: ListOrder<R>;
  rows: readonly R[];
  /** Newest change among the rows (epoch ms). */
  lastModified: number;
  summary(row: R): Hal<N>;
}

function pageHref(listing: Listing<unknown>, page: number, perPage: number, after?: string): string {
  const search = new URLSearchParams([...listing.params, ['page', String(page)], ['per_page', String(perPage)]]);
  if (after !== undefined) search.append(CURSOR_PARAMETER, after);
  return `${listing.href}?${search}`;
}

/**
 * The results entity of one page. A page past the end has no items (and a `prev` to the last page). `next`
 * carries a cursor after this page's last item; `self` keeps the request's cursor; `prev`, `first` and
 * `last` are offset pages, for direct access.
 */
function resultsEntity<R extends { id: string }, N extends RepresentationName>(
  addresses: Addresses,
  listing: Listing<R, N>,
  paging: Paging,
): Entity {
  const { page, perPage, after } = paging;
  const { rows } = listing;
  const total = rows.length;
  const last = Math.max(1, Math.ceil(total / perPage));
  const href = (n: number, cursor?: string) => pageHref(listing, n, perPage, cursor);
  const start = after ? indexAfter(rows, listing.order, after.place) : (page - 1) * perPage;
  const shown = rows.slice(start, start + perPage);
  const links: ResultsLinks = { self: link('self', href(page, after?.token)), first: link('first', href(1)) };
  if (page > 1) links.prev = link('prev', href(Math.min(page - 1, last)));
  if (start + perPage < total) links.next = link('next', href(page + 1, cursorAfter(listing.order, shown.at(-1)!)));
  links.last = link('last', href(last));
  const items = shown.map((row) => listing.summary(row));
  const fields = { total_items: total, page, per_page: perPage };
  return halEntity(addresses, results(listing.representation, fields, links, items), listing.lastModified);
}

/** What {@link listReply} needs of a list endpoint besides the request. */
export interface ListSpec<R, N extends RepresentationName> {
  /** Names the list in cache keys, e.g. `products`. */
  name: string;
  /** Which callers see the same rows for the same filter, and so share cache entries. */
  variant: string;
  /** The list's URL without query. */
  href: string;
  /** The filter in canonical form (`filterParams`). */
  params: [string, string][];
  /** The order the request asks for; `rows()` sorts in it. */
  order: ListOrder<R>;
  /** The collections the rows and their representations are built from. */
  collections: readonly CollectionName[];
  /** The filtered, sorted rows; read once per filter and revisions. */
  rows(): readonly R[];
  /** Newest change among the rows (epoch ms), e.g. {@link newest}. */
  lastModified(rows: readonly NoInfer<R>[]): number;
  summary(row: R): Hal<N>;
}

/**
 * A list endpoint's reply, a results entity of `representation`s: the listing memoised per caller variant and
 * filter, each page's entity cached, both until one of the revisions moves.
 */
export function listReply<R extends { id: string }, N extends RepresentationName>(
  call: Call,
  representation: N,
  spec: ListSpec<R, N>,
): Reply {
  const { params, order } = spec;
  const paging = readPaging(call.query, order);
  const { cache, context } = call;
  const { revisions, change } = collectionsNow(call, spec.collections);
  const filterKey = `${spec.name}:${spec.variant}:${new URLSearchParams(params)}`;
  const listing = cache.memo(filterKey, revisions, (): Listing<R, N> => {
    const rows = spec.rows();
    return {
      representation,
      href: spec.href,
      params,
      order,
      rows,
      lastModified: spec.lastModified(rows),
      summary: spec.summary,
    };
  });
  const key = `${filterKey}:${paging.page}:${paging.perPage}:${paging.after?.token ?? ''}`;
  const build = () => datedBy(resultsEntity(context.addresses, listing, paging), change);
  return { entity: cache.cached(key, revisions, build) };
}

/** The store's revisions of `collections` now, and their latest change as the core saw it. */
export function collectionsNow(
  call: Call,
  collections: readonly CollectionName[],
): { revisions: number[]; change: LatestChange } {
  const stamps = collections.map((collection) => [collection, call.context.store.revision(collection)] as const);
  return { revisions: stamps.map(([, revision]) => revision), change: call.cache.changes.latest(stamps) };
}

/**
 * A list's entity dated by the latest change of its collections as well as by its rows: an addition, a deletion or
 * a member leaving the filter changes the list (its items, `total_items`, its links) without a newer `updated_on`
 * among the rows it holds. Weak when that second saw two changes, so that `If-Modified-Since` of it is a 200.
 */
export function datedBy(entity: Entity, change: LatestChange): Entity {
  const second = toSeconds(change.at);
  const dated = second > entity.lastModified ? { ...entity, lastModified: second } : entity;
  return change.twice && second === dated.lastModified ? { ...dated, weakLastModified: true } : dated;
}

/** Newest `updated_on` of `rows` as epoch ms (0 for none): ISO strings of one format compare as text. */
export function newest(rows: readonly { updated_on: string }[]): number {
  let max = '';
  for (const row of rows) if (row.updated_on > max) max = row.updated_on;
  return max ? Date.parse(max) : 0;
}
