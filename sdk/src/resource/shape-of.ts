/**
 * The contract's shapes: what `Representations` says each representation holds and where each relation leads,
 * as the shapes `Entity<S>` is typed with. Type-only.
 */
import type { Relation, RepresentationName, Representations } from '../contract/index.js';
import type { Entity } from './entity.js';
import type { Results } from './results.js';
import type { Edge } from './shape.js';

/**
 * Optional fields take `undefined` too, read as absent (a variable left out of the URL, a field left out of the
 * JSON body): with `exactOptionalPropertyTypes`, `{ q: search }` of a `string | undefined` type-checks.
 */
type Absentable<T> = { [K in keyof T]: Partial<Pick<T, K>> extends Pick<T, K> ? T[K] | undefined : T[K] };

/** Arguments of a relation: its template variables and its body together, `undefined` when it takes none. */
type ArgsOf<V, B> = [V] extends [never]
  ? [B] extends [never]
    ? undefined
    : Absentable<B>
  : [B] extends [never]
    ? Absentable<V>
    : Absentable<V> & Absentable<B>;

/** What following a relation whose contract target is `T` resolves to. */
export type ResultOf<T> = T extends `results:${infer N extends RepresentationName}`
  ? Results<ShapeOf<N>>
  : T extends RepresentationName
    ? Entity<ShapeOf<T>>
    : T extends 'none'
      ? undefined
      : T extends 'document'
        ? Response
        : unknown;

type EdgeOf<R> = R extends Relation<infer M, infer T, infer V, infer B> ? Edge<ArgsOf<V, B>, ResultOf<T>, M> : never;

/** The shape of a representation of the contract, by name. */
export interface ShapeOf<N extends RepresentationName> {
  fields: Representations[N]['fields'];
  embedded: {
    [K in keyof Representations[N]['embedded']]: ShapeOf<Representations[N]['embedded'][K] & RepresentationName>;
  };
  relations: { [K in keyof Representations[N]['relations']]: EdgeOf<Representations[N]['relations'][K]> };
}
