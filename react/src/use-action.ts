import {
  type EdgeFor,
  Entity,
  type FollowResult,
  type HalResource,
  PreconditionFailedError,
  type Shape,
  type StorefrontError,
  type ValidationError,
} from '@storefront-platform/sdk';
import { type UseMutationOptions, type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useClient } from './context.js';
import { chainedEtag, originOf, rememberOrigin, type WriteChain } from './etags.js';
import { normaliseUrl, resourceKey } from './query-key.js';
import type { WriteKey } from './relation-keys.js';
import type { VarsOf } from './use-resource.js';

/**
 * Why a write failed: a 412 (`PreconditionFailedError`: the resource changed since the copy the write was based on,
 * with `ifMatch`), a 422 (`ValidationError`, with its field errors, among them the `last_updated_on` guard's), or
 * another of the SDK's errors. Tell them apart with `instanceof`. A `TypeError` is a write refused before anything
 * was sent, a mistake of the code: `ifMatch: true` on an entity that came with no `ETag` (an embedded one: read it
 * with `useResource` first), or `mutate` before the entity has arrived.
 */
export type ActionError = PreconditionFailedError | ValidationError | StorefrontError | TypeError;

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
 * every query of the client is refetched (what the other write touched only the server knows), so that the next
 * guarded write sends the current `ETag`.
 *
 * @example
 * const save = useAction(template, 'svc:update_template', { ifMatch: true });
 * save.mutate({ body: '<h1>Hi</h1>' });
 * if (save.error instanceof PreconditionFailedError) … // changed meanwhile: read again by itself; merge the draft
 */
export function useAction<S extends Shape, K extends WriteKey<S>>(
  entity: Entity<S> | undefined,
  rel: K,
  options: ActionOptions<Entity<S>, FollowResult<EdgeFor<S, K>>, ActionVars<EdgeFor<S, K>>> = {},
): UseMutationResult<FollowResult<EdgeFor<S, K>>, ActionError, ActionVars<EdgeFor<S, K>>, ActionContext> {
  type V = ActionVars<EdgeFor<S, K>>;
  const client = useClient();
  const queryClient = useQueryClient();
  const { ifMatch, optimistic, ...mutation } = options;
  const target = entity as unknown as Entity | undefined;
  const self = target?.links.get('self')?.[0];
  const selfUrl = self && !self.templated ? self.resolve().url : target && originOf(target).url;
  const key = selfUrl === undefined ? undefined : resourceKey(client, selfUrl);
  const chain = useRef<WriteChain>(new Map()).current;
  return useMutation({
    // Guarded writes to one entity go one after another (TanStack's `scope`): each is sent once the one before is
    // answered, so that it is sent with the ETag the one before made (see `chainedEtag`), in the order of the calls.
    // Other writes (an upload through a theme's link, unguarded saves) need no order and are not held up.
    ...(key && ifMatch === true && { scope: { id: key.join(' ') } }),
    ...mutation,
    mutationFn: async (vars: V) => {
      if (!target) throw new TypeError(`useAction(${rel}): the entity has not arrived yet`);
      // A hydrated entity has no response: its `ETag` was kept beside it.
      const base = ifMatch === true ? originOf(target).etag : undefined;
      const url = key?.[2];
      const guard = ifMatch === true ? (base && url ? chainedEtag(chain, url, base) : (base ?? true)) : ifMatch;
      const args = (vars ?? undefined) as Record<string, unknown> | undefined;
      const result = await target.follow(rel as string, args, { ifMatch: guard });
      const written = result instanceof Entity ? originOf(result) : undefined;
      if (url && typeof guard === 'string' && written?.etag && written.url && normaliseUrl(written.url) === url) {
        chain.set(`${url} ${guard}`, written.etag);
      }
      return result as FollowResult<EdgeFor<S, K>>;
    },
    onMutate: async (vars: V) => {
      if (!optimistic || !target || !key) return { previous: undefined };
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData(key);
      const url = key[2];
      const shown = client.restore(optimistic(entity as Entity<S>, vars), url);
      // A guarded write from what is shown is based on the version this one was: the server answers it (412 once
      // another's write changed it) rather than the SDK refusing a write without an ETag.
      rememberOrigin(shown, url, originOf(target).etag);
      queryClient.setQueryData(key, shown);
      return { previous, shown };
    },
    onError: (error, vars, context, meta) => {
      if (optimistic && key && context) {
        // Only over this write's own optimistic entity: another write's, or a refetch, since is newer than `previous`.
        if (queryClient.getQueryData(key) === context.shown) queryClient.setQueryData(key, context.previous);
        // After a 412 the provider refetches every query of the client already.
        if (!(error instanceof PreconditionFailedError))
          void queryClient.invalidateQueries({ queryKey: key, exact: true });
      }
      return mutation.onError?.(error, vars, context, meta);
    },
  });
}
