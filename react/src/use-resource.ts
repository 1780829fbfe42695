import type {
  Edge,
  EdgeFor,
  Entity,
  FollowArgs,
  FollowResult,
  Root,
  Shape,
  StorefrontError,
} from '@storefront-platform/sdk';
import {
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
  type UseSuspenseQueryOptions,
  type UseSuspenseQueryResult,
  useQuery,
  useSuspenseQuery,
} from '@tanstack/react-query';
import type { StorefrontClient } from './client.js';
import { useClient } from './context.js';
import { keepUnchanged, resourceKey } from './query-key.js';
import { readUrl } from './read-url.js';
import type { ReadKey } from './relation-keys.js';

/** TanStack's options of a query, less what the hook decides (the key, the function, the structural sharing). */
export type ResourceQueryOptions<T> = Omit<
  UseQueryOptions<T, StorefrontError, T, QueryKey>,
  'queryKey' | 'queryFn' | 'structuralSharing' | 'select'
>;

/** The same for the Suspense hooks. */
export type SuspenseResourceQueryOptions<T> = Omit<
  UseSuspenseQueryOptions<T, StorefrontError, T, QueryKey>,
  'queryKey' | 'queryFn' | 'structuralSharing' | 'select'
>;

/** The template variables (and for writes the body) of edge `E`, as `follow` takes them. */
export type VarsOf<E> = FollowArgs<E>[0];

/** A hook's parameters after the relation name: the variables (when the relation requires some), then options. */
export type HookArgs<E, O> =
  undefined extends VarsOf<E> ? [vars?: VarsOf<E>, options?: O] : [vars: VarsOf<E>, options?: O];

/** What `useResource(entity)` reads: the target of its `self` (a summary's detail), else the entity's own type. */
export type SelfOf<E> =
  E extends Entity<infer S extends Shape>
    ? 'self' extends keyof S['relations']
      ? S['relations']['self'] extends Edge<unknown, infer R>
        ? R
        : E
      : E
    : Entity;

/** An entity of any shape (`Entity<S>` is invariant in `S`, through `follow`). */
// biome-ignore lint/suspicious/noExplicitAny: the one way to accept every Entity<S>
export type AnyEntity = Entity<any>;

/** What the query of a resource needs: its key, and how to read it. */
interface ResourceQuery<T> {
  queryKey: QueryKey;
  queryFn: (context: { signal: AbortSignal }) => Promise<T>;
  structuralSharing: (old: unknown, next: unknown) => unknown;
}

function resourceQuery<T>(client: StorefrontClient, url: string, read: (signal: AbortSignal) => Promise<unknown>) {
  return {
    queryKey: resourceKey(client, url),
    queryFn: ({ signal }) => read(signal) as Promise<T>,
    structuralSharing: keepUnchanged,
  } satisfies ResourceQuery<T>;
}

/** The URL an entity is read from: its `self`, else the URL of the response it came from. */
function selfUrl(entity: Entity): string {
  const self = entity.links.get('self')?.[0];
  const url = self && !self.templated ? self.resolve().url : entity.response?.url;
  if (url === undefined) throw new TypeError('useResource: the entity has no self link and came from no response');
  return url;
}

/** The query of the API root (the hooks', and storefrontQuery's). */
export function rootQuery(client: StorefrontClient) {
  return resourceQuery<Root>(client, client.baseUrl, (signal) => client.root({ signal }));
}

/** The query of an entity's `self`, or of a URL relative to the API root. */
export function targetQuery<T>(client: StorefrontClient, target: AnyEntity | string) {
  // Relative to the API root as a folder: `products.json` under `…/v1`, not beside it.
  const root = client.baseUrl.endsWith('/') ? client.baseUrl : `${client.baseUrl}/`;
  const url = typeof target === 'string' ? new URL(target, root).href : selfUrl(target);
  return resourceQuery<T>(client, url, (signal) => readUrl(client, url, signal));
}

/** The query of following `rel` from `entity`; a relation the entity lacks is the query's error, not a render's. */
export function followQuery<T>(client: StorefrontClient, entity: Entity, rel: string, vars: unknown) {
  const args = (vars ?? {}) as Record<string, unknown>;
  let url: string;
  try {
    const link = entity.link(rel);
    if (link.method !== 'GET') throw new TypeError(`useFollow: ${rel} is a ${link.method} link; use useAction for it`);
    url = link.expand(args);
  } catch (error) {
    return {
      queryKey: [...resourceKey(client, entity.response?.url ?? client.baseUrl), 'follow', rel],
      queryFn: () => Promise.reject(error),
      structuralSharing: keepUnchanged,
      retry: false,
    };
  }
  return resourceQuery<T>(client, url, (signal) => (entity as Entity).follow(rel, args, { signal }));
}

/** The API root (the user, the token's scopes, its shops and links), as a query. */
export function useRoot(options?: ResourceQueryOptions<Root>): UseQueryResult<Root, StorefrontError> {
  return useQuery({ ...options, ...rootQuery(useClient()) });
}

/** {@link useRoot}, suspending until the root has arrived. */
export function useSuspenseRoot(
  options?: SuspenseResourceQueryOptions<Root>,
): UseSuspenseQueryResult<Root, StorefrontError> {
  return useSuspenseQuery({ ...options, ...rootQuery(useClient()) });
}

/**
 * A resource as a query: an entity read again from its `self` (a summary gives its detail), or the resource at a
 * URL (relative to the API root). `undefined` waits (the query is disabled), for a resource that depends on another.
 * Every hook showing the same URL shares one query and one request.
 */
export function useResource<E extends AnyEntity | string>(
  target: E | undefined,
  options?: ResourceQueryOptions<SelfOf<E>>,
): UseQueryResult<SelfOf<E>, StorefrontError> {
  const client = useClient();
  const query = target === undefined ? undefined : targetQuery<SelfOf<E>>(client, target);
  return useQuery({
    ...options,
    ...(query ?? waiting(client)),
    enabled: query === undefined ? false : (options?.enabled ?? true),
  } as UseQueryOptions<SelfOf<E>, StorefrontError, SelfOf<E>, QueryKey>);
}

/** {@link useResource}, suspending until the resource has arrived. */
export function useSuspenseResource<E extends AnyEntity | string>(
  target: E,
  options?: SuspenseResourceQueryOptions<SelfOf<E>>,
): UseSuspenseQueryResult<SelfOf<E>, StorefrontError> {
  return useSuspenseQuery({ ...options, ...targetQuery<SelfOf<E>>(useClient(), target) });
}

/**
 * Follows a GET relation of `entity` as a query, typed by the contract: the relation names the entity has, the
 * variables each takes, the entity (or `Results` page) it leads to. `undefined` for `entity` waits for it.
 *
 * @example
 * const { data: theme } = useFollow(shop, 'svc:theme');
 * const { data: page } = useFollow(shop, 'svc:products', { q: 'mug', per_page: 20 });
 */
export function useFollow<S extends Shape, K extends ReadKey<S>>(
  entity: Entity<S> | undefined,
  rel: K,
  ...[vars, options]: HookArgs<EdgeFor<S, K>, ResourceQueryOptions<FollowResult<EdgeFor<S, K>>>>
): UseQueryResult<FollowResult<EdgeFor<S, K>>, StorefrontError> {
  type T = FollowResult<EdgeFor<S, K>>;
  const client = useClient();
  const query = entity === undefined ? undefined : followQuery<T>(client, entity as unknown as Entity, rel, vars);
  return useQuery({
    ...options,
    ...(query ?? waiting(client)),
    enabled: query === undefined ? false : (options?.enabled ?? true),
  } as UseQueryOptions<T, StorefrontError, T, QueryKey>);
}

/** {@link useFollow}, suspending until the target has arrived. */
export function useSuspenseFollow<S extends Shape, K extends ReadKey<S>>(
  entity: Entity<S>,
  rel: K,
  ...[vars, options]: HookArgs<EdgeFor<S, K>, SuspenseResourceQueryOptions<FollowResult<EdgeFor<S, K>>>>
): UseSuspenseQueryResult<FollowResult<EdgeFor<S, K>>, StorefrontError> {
  type T = FollowResult<EdgeFor<S, K>>;
  return useSuspenseQuery({
    ...options,
    ...followQuery<T>(useClient(), entity as unknown as Entity, rel, vars),
  } as UseSuspenseQueryOptions<T, StorefrontError, T, QueryKey>);
}

/** The disabled query of a hook still waiting for its entity. */
function waiting(client: StorefrontClient) {
  return {
    queryKey: [...resourceKey(client, client.baseUrl), 'waiting'],
    queryFn: () => Promise.reject(new Error('waiting')),
  };
}
