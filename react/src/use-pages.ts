import type { EdgeFor, Entity, FollowResult, Results, Shape, StorefrontError } from '@storefront-platform/sdk';
import {
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryOptions,
  type UseInfiniteQueryResult,
  type UseSuspenseInfiniteQueryOptions,
  type UseSuspenseInfiniteQueryResult,
  useInfiniteQuery,
  useSuspenseInfiniteQuery,
} from '@tanstack/react-query';
import type { StorefrontClient } from './client.js';
import { useClient } from './context.js';
import { keepUnchanged, normaliseUrl, pagesKey } from './query-key.js';
import { readUrl } from './read-url.js';
import type { ReadKey } from './relation-keys.js';
import type { HookArgs } from './use-resource.js';

/** The shape of the items of the list a relation leads to. */
export type ItemShapeOf<R> = R extends Results<infer I> ? I : never;

/** Relations of shape `S` that read a list (a `Results` page). */
export type ListKey<S extends Shape> = {
  [K in ReadKey<S>]: FollowResult<EdgeFor<S, K>> extends { readonly pageItems: unknown } ? K : never;
}[ReadKey<S>];

/** What the pages hook decides itself: the key, how each page is read and found, the structural sharing. */
type Decided =
  | 'queryKey'
  | 'queryFn'
  | 'initialPageParam'
  | 'getNextPageParam'
  | 'getPreviousPageParam'
  | 'structuralSharing'
  | 'select';

/** Options of {@link usePages}: TanStack's infinite query options (`enabled`, `staleTime`, `refetchInterval`, …). */
export type PagesOptions<I extends Shape = Shape> = Omit<
  UseInfiniteQueryOptions<Results<I>, StorefrontError, InfiniteData<Results<I>, string>, QueryKey, string>,
  Decided
>;

/** The same for {@link useSuspensePages}. */
export type SuspensePagesOptions<I extends Shape = Shape> = Omit<
  UseSuspenseInfiniteQueryOptions<Results<I>, StorefrontError, InfiniteData<Results<I>, string>, QueryKey, string>,
  Decided
>;

/** A list's pages as TanStack's infinite query, with the items of every page loaded so far. */
export type UsePagesResult<I extends Shape> = UseInfiniteQueryResult<
  InfiniteData<Results<I>, string>,
  StorefrontError
> & {
  /** The items of the pages loaded, in order (`fetchNextPage` loads the next page through `next`). */
  items: Entity<I>[];
};

/** {@link UsePagesResult} of the Suspense hook. */
export type UseSuspensePagesResult<I extends Shape> = UseSuspenseInfiniteQueryResult<
  InfiniteData<Results<I>, string>,
  StorefrontError
> & { items: Entity<I>[] };

function pagesQuery(client: StorefrontClient, entity: Entity, rel: string, vars: unknown) {
  const args = (vars ?? {}) as Record<string, unknown>;
  let first: string;
  try {
    first = normaliseUrl(entity.link(rel).expand(args));
  } catch (error) {
    // A relation the entity lacks (or a bad variable) is the query's error, as with useFollow, not a render's.
    return {
      queryKey: [...pagesKey(client, entity.response?.url ?? client.baseUrl), rel] as QueryKey,
      initialPageParam: '',
      queryFn: (): Promise<Results<Shape>> => Promise.reject(error),
      getNextPageParam: () => undefined,
      structuralSharing: keepUnchanged,
      retry: false,
    };
  }
  return {
    queryKey: pagesKey(client, first) as QueryKey,
    initialPageParam: first,
    // The first page is followed from the entity (its link, its curies); later pages are read at their `next`.
    queryFn: ({ pageParam, signal }: { pageParam: string; signal: AbortSignal }) =>
      (pageParam === first
        ? entity.follow(rel, args, { signal })
        : readUrl(client, pageParam, signal)) as unknown as Promise<Results<Shape>>,
    getNextPageParam: (last: Results<Shape>) => {
      const next = last.links.get('next')?.[0];
      return next ? normaliseUrl(next.resolve().url) : undefined;
    },
    structuralSharing: keepUnchanged,
  };
}

function withItems<R extends { data: InfiniteData<Results<Shape>, unknown> | undefined }>(result: R) {
  return Object.assign(result, { items: result.data?.pages.flatMap((page) => page.pageItems) ?? [] });
}

/**
 * A list followed from `entity` along `rel` (`svc:products`, `svc:all_products`, …), page by page through `next`:
 * TanStack's infinite query (`fetchNextPage`, `hasNextPage`, `isFetchingNextPage`) plus `items`, for infinite
 * scrolling. `undefined` for `entity` waits for it.
 *
 * @example
 * const { items, hasNextPage, fetchNextPage } = usePages(shop, 'svc:products', { q: search, per_page: 20 });
 */
export function usePages<S extends Shape, K extends ListKey<S>>(
  entity: Entity<S> | undefined,
  rel: K,
  ...[vars, options]: HookArgs<EdgeFor<S, K>, PagesOptions<ItemShapeOf<FollowResult<EdgeFor<S, K>>>>>
): UsePagesResult<ItemShapeOf<FollowResult<EdgeFor<S, K>>>> {
  const client = useClient();
  const query = entity === undefined ? undefined : pagesQuery(client, entity as unknown as Entity, rel, vars);
  // The items' shape is the hook's to give (below): the options are read as those of any list.
  const given = options as PagesOptions | undefined;
  const result = useInfiniteQuery({
    ...given,
    ...(query ?? {
      queryKey: [...pagesKey(client, client.baseUrl), 'waiting'],
      initialPageParam: '',
      queryFn: () => Promise.reject(new Error('waiting')),
      getNextPageParam: () => undefined,
    }),
    // TanStack's `enabled` may be a function of the query: kept as given once the entity is there.
    enabled: query === undefined ? false : (given?.enabled ?? true),
  });
  return withItems(result) as unknown as UsePagesResult<ItemShapeOf<FollowResult<EdgeFor<S, K>>>>;
}

/** {@link usePages}, suspending until the first page has arrived. */
export function useSuspensePages<S extends Shape, K extends ListKey<S>>(
  entity: Entity<S>,
  rel: K,
  ...[vars, options]: HookArgs<EdgeFor<S, K>, SuspensePagesOptions<ItemShapeOf<FollowResult<EdgeFor<S, K>>>>>
): UseSuspensePagesResult<ItemShapeOf<FollowResult<EdgeFor<S, K>>>> {
  const result = useSuspenseInfiniteQuery({
    ...(options as SuspensePagesOptions | undefined),
    ...pagesQuery(useClient(), entity as unknown as Entity, rel, vars),
  });
  return withItems(result) as unknown as UseSuspensePagesResult<ItemShapeOf<FollowResult<EdgeFor<S, K>>>>;
}
