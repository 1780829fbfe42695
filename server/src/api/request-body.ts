/**
 * Request bodies as the wire contract declares them: a route names the relation it serves, and its body is checked
 * against that relation's JSON Schema, generated from the contract's TypeScript type (scripts/openapi-contract.ts,
 * the same schema the OpenAPI document states), and typed as that type. There is no second description of a body
 * to keep equal: a member renamed in `sdk/src/contract` changes both the check and the route's compilation.
 */
import type { RelationName, RepresentationName, Representations } from '@storefront-platform/sdk/internal';
import type { CoreRequest } from '../core/types.js';
import { readJson } from '../http/json-body.js';
import type { Schema } from '../http/json-schema.js';
import { CONTRACT } from '../openapi/contract.generated.js';

type RelationOf<N extends RepresentationName, R extends RelationName<N>> = Representations[N]['relations'][R];

/** The relations of representation `N` that take a JSON body. */
export type BodyRelation<N extends RepresentationName> = {
  [R in RelationName<N>]: [RelationOf<N, R>] extends [{ body: infer B }] ? ([B] extends [never] ? never : R) : never;
}[RelationName<N>];

/** The body of relation `R` of representation `N`, as the contract types it. */
export type BodyOf<N extends RepresentationName, R extends BodyRelation<N>> =
  RelationOf<N, R> extends {
    body: infer B;
  }
    ? B
    : never;

const PREFIX = '#/components/schemas/';

/** The contract's schema a `$ref` of a generated schema names. */
function contractSchema(ref: string): Schema {
  const name = ref.startsWith(PREFIX) ? ref.slice(PREFIX.length) : undefined;
  const schema = name === undefined ? undefined : CONTRACT.schemas[name];
  if (!schema) throw new Error(`the contract has no schema ${ref}`);
  return schema;
}

/**
 * The JSON body of a request following `relation` of `representation`, checked against the contract's schema of
 * it (415, 413 past `limit`, 400, 422 on the member; see `readJson`).
 */
export async function readBody<N extends RepresentationName, R extends BodyRelation<N>>(
  request: CoreRequest,
  representation: N,
  relation: R,
  limit: number,
): Promise<BodyOf<N, R>> {
  const schema = CONTRACT.representations[representation]?.relations[relation]?.body;
  if (!schema) throw new Error(`the contract gives ${representation} no body for ${relation}`);
  return (await readJson(request, schema, contractSchema, limit)) as BodyOf<N, R>;
}
