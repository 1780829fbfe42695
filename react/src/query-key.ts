import { Entity } from '@storefront-platform/sdk';
import type { InfiniteData, Query, QueryClient, QueryKey } from '@tanstack/react-query';
import type { StorefrontClient } from './client.js';

/** First element of every query key the bindings make, so that apps can tell them from their own. */
export const QUERY_ROOT = 'storefront';

/**
 * The query key of a GET of `url` by `client`: the SDK's cache key (owner, normalised URL) with the client standing for
 * the owner. Lists add `'pages'`, their data having another form.
 */
export type StorefrontQueryKey =
  | readonly [typeof QUERY_ROOT, string, string]
  | readonly [typeof QUERY_ROOT, string, string, 'pages'];

/** `url` as the SDK's cache keys write it: parsed and serialised by the URL parser, without its fragment. */
export function normaliseUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

export function resourceKey(client: StorefrontClient, url: string): StorefrontQueryKey {
  return [QUERY_ROOT, client.key, normaliseUrl(url)];
}

export function pagesKey(client: StorefrontClient, url: string): StorefrontQueryKey {
  return [QUERY_ROOT, client.key, normaliseUrl(url), 'pages'];
}

/** The URLs a query of `client` was read from: its key's, and for a list each page's; none for another's query. */
export function queryUrls(query: Query, client: StorefrontClient): string[] {
  const key: QueryKey = query.queryKey;
  if (key[0] !== QUERY_ROOT || key[1] !== client.key || typeof key[2] !== 'string') return [];
  const params = (query.state.data as InfiniteData<unknown, unknown> | undefined)?.pageParams;
  return key[3] === 'pages' && Array.isArray(params)
    ? [key[2], ...params.filter((p) => typeof p === 'string')]
    : [key[2]];
}

/**
 * Marks stale the queries of `client` read from one of `urls` (`'all'`: every one of its queries), so that those
 * shown are read again.
 */
export function invalidateUrls(
  queryClient: QueryClient,
  client: StorefrontClient,
  urls: readonly string[] | 'all',
): Promise<void> {
  const wanted = urls === 'all' ? undefined : new Set(urls.map(normaliseUrl));
  return queryClient.invalidateQueries({
    predicate: (query) => {
      const shown = queryUrls(query, client);
      return shown.length > 0 && (!wanted || shown.some((url) => wanted.has(url)));
    },
  });
}

/** True when two entities hold the same document (a 304, or a 200 of what was there). */
function sameEntity(old: Entity, next: Entity): boolean {
  return JSON.stringify(old.toJSON()) === JSON.stringify(next.toJSON());
}

function isPages(data: unknown): data is InfiniteData<unknown, unknown> {
  return typeof data === 'object' && data !== null && Array.isArray((data as InfiniteData<unknown>).pages);
}

/**
 * TanStack's `structuralSharing` for entities: the old entity (or page list) when nothing changed, so that a refetch
 * answered by a 304 re-renders nothing. TanStack's default compares plain objects only, and an entity is a class.
 */
export function keepUnchanged(old: unknown, next: unknown): unknown {
  if (old instanceof Entity && next instanceof Entity) return sameEntity(old, next) ? old : next;
  if (isPages(old) && isPages(next)) {
    const pages = next.pages.map((page, i) => keepUnchanged(old.pages[i], page));
    const same =
      pages.length === old.pages.length &&
      pages.every((page, i) => page === old.pages[i]) &&
      next.pageParams.every((param, i) => param === old.pageParams[i]);
    return same ? old : { pages, pageParams: next.pageParams };
  }
  return next;
}
