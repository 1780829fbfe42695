import { StorefrontError } from '@storefront-platform/sdk';
import { isServer, type QueryClient } from '@tanstack/react-query';
import { QUERY_ROOT } from './query-key.js';

/**
 * TanStack's `retry` for the bindings' queries: no retry of the SDK's errors, which the SDK has either retried
 * already (a network failure, a timeout, 408, 429, 5xx: its `retry` option) or which the same request would get
 * again (a 4xx, an unknown relation, a missing template variable); TanStack's default (3 retries) for any other
 * error in a browser, none on a server (as TanStack's own default: a server render does not wait out retries).
 * Without it a 503 costs the SDK's attempts times TanStack's, and a 404 shows after 7 s of retries.
 */
export function storefrontRetry(failureCount: number, error: unknown): boolean {
  return !isServer && !(error instanceof StorefrontError) && failureCount < 3;
}

/**
 * Gives the bindings' queries {@link storefrontRetry} unless the app chose a `retry` for them (in the `QueryClient`'s
 * `defaultOptions`, or by `setQueryDefaults` for their keys): the app's choice wins, as does a hook's `retry` option.
 */
export function defaultRetry(queryClient: QueryClient): void {
  const key = [QUERY_ROOT];
  if (queryClient.getDefaultOptions().queries?.retry !== undefined) return;
  if (queryClient.getQueryDefaults(key).retry !== undefined) return;
  queryClient.setQueryDefaults(key, { ...queryClient.getQueryDefaults(key), retry: storefrontRetry });
}
