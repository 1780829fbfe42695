/**
 * The contract's shapes: what `Representations` says each representation holds and where each relation leads,
 * as the shapes `Entity<S>` is typed with. Type-only.
 */
import type { Relation, RepresentationName, Representations } from '../contract/index.js';
import type { Entity } from './entity.js';
import type { Results } from './results.js';
import type { Edge } from './shape.js';

/** Arguments of a relation: its template variables and its body together, `undefined` when it takes none. */
type ArgsOf<V, B> = [V] extends [never] ? ([B] extends [never] ? undefined : B) : [B] extends [never] ? V : V & B;

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

type EdgeOf<R> = R extends Relation<infer _M, infer T, infer V, infer B> ? Edge<ArgsOf<V, B>, ResultOf<T>> : never;

/** The shape of a representation of the contract, by name. */
export interface ShapeOf<N extends RepresentationName> {
  fields: Representations[N]['fields'];
  embedded: {
    [K in keyof Representations[N]['embedded']]: ShapeOf<Representations[N]['embedded'][K] & RepresentationName>;
  };
  relations: { [K in keyof Representations[N]['relations']]: EdgeOf<Representations[N]['relations'][K]> };
}
