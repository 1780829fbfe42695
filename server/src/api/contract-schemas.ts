/**
 * Requests as the wire contract declares them, read from its JSON Schemas (generated from its TypeScript types by
 * scripts/openapi-contract.ts; the same schemas the OpenAPI document states): a route names the relation it serves,
 * and its body is checked against that relation's schema and typed as the contract's type; the values a query
 * variable may take (a list's sort orders) come from the schema of the relation's variables. There is no second
 * description to keep equal: a member renamed in `sdk/src/contract` changes both the check and the compilation.
 */
import type { RelationName, RepresentationName, Representations } from '@storefront-platform/sdk/internal';
import type { CoreRequest } from '../core/types.js';
import { readJson } from '../http/json-body.js';
import type { Schema } from '../http/json-schema.js';
import type { Contract } from '../openapi/contract-types.js';

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

let contract: Promise<Contract> | undefined;

/**
 * The generated contract, imported at its first use: the largest module of the server (56 KB) and one no start
 * needs, only a request with a body or a list's query (issue 49, start time).
 */
function loadContract(): Promise<Contract> {
  contract ??= import('../openapi/contract.js').then((module) => module.CONTRACT);
  return contract;
}

const PREFIX = '#/components/schemas/';

/** The schema of `contract` a `$ref` of a generated schema names. */
function contractSchema(contract: Contract, ref: string): Schema {
  const name = ref.startsWith(PREFIX) ? ref.slice(PREFIX.length) : undefined;
  const schema = name === undefined ? undefined : contract.schemas[name];
  if (!schema) throw new Error(`the contract has no schema ${ref}`);
  return schema;
}

/** `schema`, its `$ref` followed. */
function followed(contract: Contract, schema: Schema): Schema {
  return typeof schema.$ref === 'string' ? followed(contract, contractSchema(contract, schema.$ref)) : schema;
}

/** The template variables of relation `R` of representation `N`, as the contract types them. */
export type VarsOf<N extends RepresentationName, R extends RelationName<N>> =
  RelationOf<N, R> extends {
    vars: infer V;
  }
    ? V
    : never;

/** The lists {@link queryValues} gave, by representation, relation and variable: looked up once, not per request. */
const values = new Map<string, Promise<readonly unknown[]>>();

/**
 * The values variable `name` of relation `relation` of `representation` may take, in the contract's order: its
 * schema's `enum` (a list's sort orders, statuses).
 */
export function queryValues<
  N extends RepresentationName,
  R extends RelationName<N>,
  V extends keyof VarsOf<N, R> & string,
>(representation: N, relation: R, name: V): Promise<readonly NonNullable<VarsOf<N, R>[V]>[]> {
  const key = `${representation} ${relation} ${name}`;
  let found = values.get(key);
  if (!found) {
    found = loadContract().then((contract) => {
      const vars = contract.representations[representation]?.relations[relation]?.vars;
      const properties = vars && (followed(contract, vars).properties as Record<string, Schema> | undefined);
      const listed = properties?.[name] && followed(contract, properties[name]).enum;
      if (!Array.isArray(listed)) throw new Error(`the contract lists no values of ${name} for ${relation}`);
      return listed;
    });
    values.set(key, found);
  }
  return found as Promise<readonly NonNullable<VarsOf<N, R>[V]>[]>;
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
  const contract = await loadContract();
  const schema = contract.representations[representation]?.relations[relation]?.body;
  if (!schema) throw new Error(`the contract gives ${representation} no body for ${relation}`);
  return (await readJson(request, schema, (ref) => contractSchema(contract, ref), limit)) as BodyOf<N, R>;
}
