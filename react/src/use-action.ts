import {
  type EdgeFor,
  type Entity,
  type FollowResult,
  type HalResource,
  PreconditionFailedError,
  type RelationKey,
  type Shape,
  type StorefrontError,
  type ValidationError,
} from '@storefront-platform/sdk';
import { type UseMutationOptions, type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import { useClient } from './context.js';
import { originOf, rememberOrigin } from './etags.js';
import { invalidateUrls, resourceKey } from './query-key.js';
import type { VarsOf } from './use-resource.js';

/**
 * Why a write failed: a 412 (`PreconditionFailedError`: the resource changed since the copy the write was based on,
 * with `ifMatch`), a 422 (`ValidationError`, with its field errors, among them the `last_updated_on` guard's), or
 * another of the SDK's errors. Tell them apart with `instanceof`.
 */
export type ActionError = PreconditionFailedError | ValidationError | StorefrontError;

/** The variables of `mutate` for edge `E`: the body (and template variables); none when it takes none. */
// biome-ignore lint/suspicious/noConfusingVoidType: `void` is what lets `mutate()` be called without an argument
export type ActionVars<E> = undefined extends VarsOf<E> ? VarsOf<E> | void : VarsOf<E>;

/** What `onMutate` hands to `onError`: the entity shown before an optimistic update, and the one it showed. */
export interface ActionContext {
  previous: unknown;
  shown?: unknown;
}

/** Options of {@link useAction}: TanStack's mutation options, and the write's own. */
export interface ActionOptions<E, R, V>
  extends Omit<UseMutationOptions<R, ActionError, V, ActionContext>, 'mutationFn' | 'onMutate'> {
  /**
   * Guards the write with `If-Match` (the SDK's `ifMatch`): `true` sends the `ETag` the entity was read with (a
   * hydrated entity keeps it), so a concurrent change makes the write fail with a 412 instead of being overwritten.
   */
  ifMatch?: boolean | string;
  /**
   * An optimistic update: the document the entity will have after the write, shown by the hooks reading the entity
   * at once, until the write's invalidation refetches it; put back when the write fails. A guarded write made from
   * the entity shown meanwhile sends the `ETag` of the version the optimistic one was made from.
   */
  optimistic?: (entity: E, vars: V) => HalResource;
}

/**
 * A write along a `put`, `post` or `delete` link of `entity` as TanStack's mutation, typed by the contract (the body
 * the relation takes, what it returns). When it succeeds, the queries whose responses the SDK's HTTP cache dropped
 * (the resource itself, the lists embedding it, the collections above it) are refetched, and no other: the
 * `StorefrontProvider` reads what the cache dropped, so no query key is written by hand. When it fails with a 412,
 * the queries read from the entity's address are refetched, so that the next guarded write sends the current `ETag`.
 *
 * @example
 * const save = useAction(template, 'svc:update_template', { ifMatch: true });
 * save.mutate({ body: '<h1>Hi</h1>' });
 * if (save.error instanceof PreconditionFailedError) … // changed meanwhile: read again by itself; merge the draft
 */
export function useAction<S extends Shape, K extends RelationKey<S>>(
  entity: Entity<S> | undefined,
  rel: K,
  options: ActionOptions<Entity<S>, FollowResult<EdgeFor<S, K>>, ActionVars<EdgeFor<S, K>>> = {},
): UseMutationResult<FollowResult<EdgeFor<S, K>>, ActionError, ActionVars<EdgeFor<S, K>>, ActionContext> {
  type V = ActionVars<EdgeFor<S, K>>;
  const client = useClient();
  const queryClient = useQueryClient();
  const { ifMatch, optimistic, ...mutation } = options;
  const target = entity as unknown as Entity | undefined;
  const selfKey = () => {
    const self = target?.links.get('self')?.[0];
    const url = self && !self.templated ? self.resolve().url : target && originOf(target).url;
    return url === undefined ? undefined : resourceKey(client, url);
  };
  return useMutation({
    ...mutation,
    mutationFn: async (vars: V) => {
      if (!target) throw new TypeError(`useAction(${rel}): the entity has not arrived yet`);
      // A hydrated entity has no response: its `ETag` was kept beside it.
      const guard = ifMatch === true ? (originOf(target).etag ?? true) : ifMatch;
      const args = (vars ?? undefined) as Record<string, unknown> | undefined;
      return (await target.follow(rel as string, args, { ifMatch: guard })) as FollowResult<EdgeFor<S, K>>;
    },
    onMutate: async (vars: V) => {
      const key = selfKey();
      if (!optimistic || !target || !key) return { previous: undefined };
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData(key);
      const url = key[2];
      const shown = client.restore(optimistic(entity as Entity<S>, vars), url);
      // A guarded write from what is shown is based on the version this one was: the server answers it (412 once
      // this write changed it) rather than the SDK refusing a write without an ETag.
      rememberOrigin(shown, url, originOf(target).etag);
      queryClient.setQueryData(key, shown);
      return { previous, shown };
    },
    onError: (error, vars, context, meta) => {
      const key = selfKey();
      if (optimistic && key && context) {
        // Only over this write's own optimistic entity: another write's, or a refetch, since is newer than `previous`.
        if (queryClient.getQueryData(key) === context.shown) queryClient.setQueryData(key, context.previous);
      }
      if (key && error instanceof PreconditionFailedError) {
        // The copy the write was based on is stale: every query showing the entity reads it again, so that the
        // next guarded write sends the current ETag instead of failing the same way.
        void invalidateUrls(queryClient, client, [key[2]]);
      } else if (optimistic && key && context) void queryClient.invalidateQueries({ queryKey: key, exact: true });
      return mutation.onError?.(error, vars, context, meta);
    },
  });
}
