/**
 * @storefront-platform/react: React bindings of @storefront-platform/sdk on TanStack Query v5. Wrap the app in
 * `StorefrontProvider`, then read with `useRoot`, `useFollow`, `useResource`, `usePages` and write with `useAction`;
 * `storefrontQuery` gives the same queries to route loaders and `prefetchQuery`.
 */
export {
  createStorefrontClient,
  type Invalidation,
  type StorefrontClient,
  type StorefrontClientOptions,
} from './client.js';
export { useClient } from './context.js';
export { dehydrateStorefront, hydrationOptions, StorefrontHydrate, type StorefrontHydrateProps } from './hydration.js';
export { StorefrontProvider, type StorefrontProviderProps } from './provider.js';
export { QUERY_ROOT, type StorefrontQueryKey } from './query-key.js';
export type { ReadKey, WriteKey } from './relation-keys.js';
export { storefrontRetry } from './retry.js';
export { type CodeCallback, type SignInOptions, sessionTokenStorage, type TokenStorage } from './sign-in.js';
export { RequireSignIn, type RequireSignInProps, type SignIn, useSignIn } from './sign-in-context.js';
export { type StorefrontQueryOptions, storefrontQuery } from './storefront-query.js';
export { type ActionContext, type ActionError, type ActionOptions, type ActionVars, useAction } from './use-action.js';
export {
  type ItemShapeOf,
  type ListKey,
  type PagesOptions,
  type SuspensePagesOptions,
  type UsePagesResult,
  type UseSuspensePagesResult,
  usePages,
  useSuspensePages,
} from './use-pages.js';
export {
  type AnyEntity,
  type HookArgs,
  type ResourceQueryOptions,
  type SelfOf,
  type SuspenseResourceQueryOptions,
  useFollow,
  useResource,
  useRoot,
  useSuspenseFollow,
  useSuspenseResource,
  useSuspenseRoot,
  type VarsOf,
} from './use-resource.js';
