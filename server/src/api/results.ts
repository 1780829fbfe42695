/**
 * Results entities (wire contract, "Results entities"): one page of an already filtered and sorted list,
 * with `total_items`, `page`, `per_page`, `_embedded.items` and the paging links that apply.
 */
import type { HalResource, Links } from '@storefront-platform/sdk/internal';
import type { Addresses } from '../core/types.js';
import type { Entity } from '../http/entity.js';
import type { Revisions } from '../http/representation-cache.js';
import type { Call, Reply } from '../http/route.js';
import { halEntity, link } from './hal.js';
import { integer } from './query.js';

const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 100;

/** Which page of a list a request asks for. */
export interface Paging {
  /** 1-based. */
  page: number;
  perPage: number;
}

/** `page` and `per_page` of a request (400 when not positive integers, or `per_page` over 100). */
function readPaging(query: URLSearchParams): Paging {
  return {
    page: integer(query, 'page', 1, 999_999_999, 1),
    perPage: integer(query, 'per_page', 1, MAX_PER_PAGE, DEFAULT_PER_PAGE),
  };
}

/** A filtered, sorted list and how to present it. */
export interface Listing<R> {
  /** The members' `_class`, e.g. `product`. */
  kind: string;
  /** The list's URL without query. */
  href: string;
  /** The filter as query parameters in a fixed order (no paging), so that every link is canonical. */
  params: readonly [string, string][];
  rows: readonly R[];
  /** Newest change among the rows (epoch ms). */
  lastModified: number;
  summary(row: R): HalResource;
}

function pageHref(listing: Listing<unknown>, page: number, perPage: number): string {
  const search = new URLSearchParams([...listing.params, ['page', String(page)], ['per_page', String(perPage)]]);
  return `${listing.href}?${search}`;
}

/** The results entity of one page. A page past the end has no items (and a `prev` to the last page). */
function resultsEntity<R>(addresses: Addresses, listing: Listing<R>, { page, perPage }: Paging): Entity {
  const total = listing.rows.length;
  const last = Math.max(1, Math.ceil(total / perPage));
  const href = (n: number) => pageHref(listing, n, perPage);
  const links: Links = { self: link('self', href(page)), first: link('first', href(1)) };
  if (page > 1) links.prev = link('prev', href(Math.min(page - 1, last)));
  if (page < last) links.next = link('next', href(page + 1));
  links.last = link('last', href(last));
  const start = (page - 1) * perPage;
  const items = listing.rows.slice(start, start + perPage).map((row) => listing.summary(row));
  return halEntity(
    addresses,
    {
      _class: ['results', listing.kind],
      total_items: total,
      page,
      per_page: perPage,
      _links: links,
      _embedded: { items },
    },
    listing.lastModified,
  );
}

/** What {@link listReply} needs of a list endpoint besides the request. */
export interface ListSpec<R> {
  /** Names the list in cache keys, e.g. `products`. */
  name: string;
  /** Which callers see the same rows for the same filter, and so share cache entries. */
  variant: string;
  /** The filter in canonical form (`filterParams`). */
  params: [string, string][];
  /** Store revisions the rows depend on. */
  revisions: Revisions;
  /** The filtered, sorted rows and their presentation; built once per filter and revisions. */
  listing(): Omit<Listing<R>, 'params'>;
}

/**
 * A list endpoint's reply: the listing memoised per caller variant and filter, each page's entity cached,
 * both until one of the revisions moves.
 */
export function listReply<R>(call: Call, spec: ListSpec<R>): Reply {
  const paging = readPaging(call.query);
  const { cache, context } = call;
  const filterKey = `${spec.name}:${spec.variant}:${new URLSearchParams(spec.params)}`;
  const listing = cache.memo(filterKey, spec.revisions, (): Listing<R> => ({ ...spec.listing(), params: spec.params }));
  const key = `${filterKey}:${paging.page}:${paging.perPage}`;
  return { entity: cache.cached(key, spec.revisions, () => resultsEntity(context.addresses, listing, paging)) };
}

/**
 * `rows` sorted by `key`, ties broken by id, descending when asked. Keys are computed once per row,
 * not once per comparison.
 */
export function sortRows<R extends { id: string }>(
  rows: readonly R[],
  key: (row: R) => string | number,
  descending: boolean,
): R[] {
  const keyed = rows.map((row) => ({ row, key: key(row), id: Number(row.id) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id || (a.row.id < b.row.id ? -1 : 1)));
  const out = keyed.map((entry) => entry.row);
  return descending ? out.reverse() : out;
}

/** Newest `updated_on` of `rows` as epoch ms (0 for none): ISO strings of one format compare as text. */
export function newest(rows: readonly { updated_on: string }[]): number {
  let max = '';
  for (const row of rows) if (row.updated_on > max) max = row.updated_on;
  return max ? Date.parse(max) : 0;
}
