/** The shape of `contract.generated.json`: the wire contract as data (written by scripts/openapi-contract.ts). */

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1), as plain data. */
export type Schema = { [keyword: string]: unknown };

/** One relation of a representation, as the contract types it. */
export interface RelationSpec {
  /** `get`, `put`, `post` or `delete`. */
  method: string;
  /**
   * A representation name, `results:<name>`, `none` (204) or `document` (not JSON); several names when the link
   * leads to one of them, which only its `_class` tells (an event's `svc:subject`).
   */
  target: string | string[];
  /** The URI template's variables, when it has any. */
  vars?: Schema;
  /** The JSON request body, when the relation takes one. */
  body?: Schema;
}

/** One representation of the contract's `Representations`. */
export interface RepresentationSpec {
  /** The `_class` it names (summaries share their detail's). */
  class: string;
  /** Its own members. */
  fields: Schema;
  /** `_embedded` member → representation name. */
  embedded: Record<string, string>;
  /** Relation name → what following it does. */
  relations: Record<string, RelationSpec>;
}

/** The wire contract as data. */
export interface Contract {
  /** JSON Schemas of the contract's wire types, by type name (`$ref`s point at `#/components/schemas/<name>`). */
  schemas: Record<string, Schema>;
  /** Every representation, by its name in the contract's `Representations`. */
  representations: Record<string, RepresentationSpec>;
}
