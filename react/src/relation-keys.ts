import type { Edge, EdgeFor, RelationKey, Shape } from '@storefront-platform/sdk';

/** The method the contract gives relation `K` of shape `S` (any `string` on an untyped entity). */
type MethodOf<S extends Shape, K extends string> = EdgeFor<S, K> extends Edge<unknown, unknown, infer M> ? M : never;

/**
 * Relations of `S` that are reads (GET): what `useFollow`, `usePages` and `storefrontQuery` follow. A write's link
 * there would not compile rather than fail at run time.
 */
export type ReadKey<S extends Shape> = {
  [K in RelationKey<S>]: 'get' extends MethodOf<S, K> ? K : never;
}[RelationKey<S>];

/** Relations of `S` that are writes (PUT, POST, DELETE): what `useAction` sends. */
export type WriteKey<S extends Shape> = {
  [K in RelationKey<S>]: [Exclude<MethodOf<S, K>, 'get'>] extends [never] ? never : K;
}[RelationKey<S>];
