/**
 * Chains of `follow` in one await: `await client.root().follow('svc:shops').follow('next')`. The promise that
 * `client.root()` and `follow` return is a real promise with a `follow` of its own, so a chain is promises and
 * nothing else: each hop is sent as soon as the one before it has resolved (as a `then` would), one request per
 * hop, and none after a failure.
 */
import { type FollowHop, StorefrontError } from '../errors/storefront-error.js';

/** An entity as a chain sees it: whatever the previous hop resolved to, not checked by types at run time. */
interface Followable {
  follow(rel: string, ...args: unknown[]): Promise<unknown>;
}

/**
 * `error` naming `hop`: a copy of the same class (the original may be shared, e.g. the refusal of a revoked
 * authorization, and must not change), with the hop in its message, stack and `hop`. Errors that are not the
 * SDK's (an abort's reason, a `TypeError`) and errors already naming a hop go through as they are.
 */
function atHop(error: unknown, hop: FollowHop): unknown {
  if (!(error instanceof StorefrontError) || error.hop) return error;
  const named = Object.create(Object.getPrototypeOf(error), Object.getOwnPropertyDescriptors(error));
  named.hop = hop;
  named.message = `${error.message} (hop ${hop.position}: ${hop.relation})`;
  // A value, not an assignment: copied as V8's own accessor (Node 24), `stack` would read nothing off the copy.
  return Object.defineProperty(named, 'stack', { value: error.stack?.replace(error.message, named.message) });
}

/**
 * `promise` with a `follow` that goes on from what it resolves to; `hop` is the hop that `promise` makes, absent
 * when it is where the chain starts (`client.root()`). Its callers give it its type, `FollowPromise` (declared with
 * `Entity`, which this module does not import so that the two do not import each other).
 */
export function followPromise<T>(promise: Promise<T>, hop?: FollowHop): Promise<T> & Followable {
  const follow = (relation: string, ...args: unknown[]) => {
    const next: FollowHop = { relation, position: (hop?.position ?? 0) + 1 };
    return followPromise(
      promise.then(
        (entity) => {
          // Only an untyped entity's chain gets here with something else (types end the chain on a non-entity).
          if (!(entity as Partial<Followable> | undefined)?.follow)
            throw new TypeError(`hop ${next.position}: ${relation} follows from no entity`);
          return (entity as Followable).follow(relation, ...args).catch((error: unknown) => {
            throw atHop(error, next);
          });
        },
        (error: unknown) => {
          throw hop ? atHop(error, hop) : error;
        },
      ),
      next,
    );
  };
  return Object.assign(promise, { follow });
}
