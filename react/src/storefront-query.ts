/**
 * The hooks' queries as TanStack query options, for code outside components: a route loader's
 * `queryClient.ensureQueryData(…)`, `queryClient.prefetchQuery(…)` before a render, `useQuery(…)` of your own.
 * Same key, same read and same structural sharing as `useRoot`, `useResource` and `useFollow`: a query prefetched
 * with these options is the one the hook shows, without a second request.
 */
import type * as sdk from '@storefront-platform/sdk';
import {
  type QueryKey,
  type QueryKeyWithDataTag,
  queryOptions,
  type UnusedSkipTokenOptions,
} from '@tanstack/react-query';
import type { StorefrontClient } from './client.js';
import type { ReadKey } from './relation-keys.js';
import { type AnyEntity, followQuery, rootQuery, type SelfOf, targetQuery, type VarsOf } from './use-resource.js';

/** TanStack's `queryOptions(…)` of a storefront query of `T`: pass it to `useQuery`, `prefetchQuery`, loaders. */
export type StorefrontQueryOptions<T> = UnusedSkipTokenOptions<T, sdk.StorefrontError, T, QueryKey> &
  QueryKeyWithDataTag<QueryKey, T, sdk.StorefrontError>;

/** The variables after the relation name: required when the relation requires some. */
type VarsArgs<E> = undefined extends VarsOf<E> ? [vars?: VarsOf<E>] : [vars: VarsOf<E>];

/**
 * The query options of what a hook reads: the API root (`useRoot`), a resource (`useResource`: an entity's `self` or
 * a URL relative to the API root), or a GET relation followed from an entity (`useFollow`, typed by the contract).
 *
 * @example
 * // A route loader: the page's `useFollow(shop, 'svc:theme')` finds the theme there.
 * const shop = await queryClient.ensureQueryData(storefrontQuery(client, 'shops/1.json'));
 * await queryClient.prefetchQuery(storefrontQuery(client, shop, 'svc:theme'));
 */
export function storefrontQuery(client: StorefrontClient): StorefrontQueryOptions<sdk.Root>;
export function storefrontQuery<E extends AnyEntity | string>(
  client: StorefrontClient,
  target: E,
): StorefrontQueryOptions<SelfOf<E>>;
export function storefrontQuery<S extends sdk.Shape, K extends ReadKey<S>>(
  client: StorefrontClient,
  entity: sdk.Entity<S>,
  rel: K,
  ...vars: VarsArgs<sdk.EdgeFor<S, K>>
): StorefrontQueryOptions<sdk.FollowResult<sdk.EdgeFor<S, K>>>;
export function storefrontQuery(
  client: StorefrontClient,
  target?: AnyEntity | string,
  rel?: PropertyKey,
  ...[vars]: unknown[]
): unknown {
  const query =
    target === undefined
      ? rootQuery(client)
      : rel === undefined
        ? targetQuery(client, target)
        : followQuery(client, target as sdk.Entity, String(rel), vars);
  return queryOptions(query as UnusedSkipTokenOptions<unknown, sdk.StorefrontError, unknown, QueryKey>);
}
