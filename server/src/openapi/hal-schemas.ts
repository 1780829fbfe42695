/**
 * The wire schemas of the contract's representations: a HAL document (`_class`, `_links` with the relations the
 * contract gives the representation, `_embedded` arrays) around the representation's own fields, and the results
 * entity of a list. Built from the generated contract, so that a field, a relation or an embedded member exists
 * in the document exactly where it exists in the SDK's types.
 */
import { CONTRACT } from './contract.js';
import type { RepresentationSpec, Schema } from './contract-types.js';

const PREFIX = '#/components/schemas/';

/** A `$ref` to a component schema. */
export const schemaRef = (name: string): Schema => ({ $ref: PREFIX + name });

/** The component name of a representation (`productSummary` → `ProductSummary`) or of its results entity. */
export function componentName(target: string): string {
  const results = target.startsWith('results:');
  const name = results ? target.slice('results:'.length) : target;
  return name[0]!.toUpperCase() + name.slice(1) + (results ? 'Results' : '');
}

/** A contract schema, with a `$ref` to a generated component resolved. */
function resolve(schema: Schema): Schema {
  const target = typeof schema.$ref === 'string' ? CONTRACT.schemas[schema.$ref.slice(PREFIX.length)] : undefined;
  return target ?? schema;
}

const CURIES: Schema = {
  type: 'array',
  items: schemaRef('Curie'),
  description: 'The `svc:` curie (top-level documents only).',
};

/** The schema of one relation's link: a `Link`, with the `method` the contract gives the relation (none for GET). */
function linkSchema(method: string): Schema {
  if (method === 'get') return { allOf: [schemaRef('Link'), { properties: { method: false } }] };
  return { allOf: [schemaRef('Link'), { properties: { method: { const: method } }, required: ['method'] }] };
}

/** `_links`: every relation of the representation (each optional: links appear when the caller may use them). */
function linksSchema(relations: RepresentationSpec['relations'], required: string[]): Schema {
  const properties: Record<string, Schema> = { curies: CURIES };
  for (const [rel, relation] of Object.entries(relations)) properties[rel] = linkSchema(relation.method);
  return { type: 'object', properties, required, additionalProperties: false };
}

/** A HAL document: `_class`, the fields, `_links`, `_embedded`, and nothing else. */
function halDocument(
  classes: string[],
  fields: Schema,
  links: Schema | undefined,
  embedded: Record<string, string>,
  description: unknown,
): Schema {
  const own = resolve(fields);
  const properties: Record<string, Schema> = {
    _class: { const: classes, description: 'Kind(s) of the resource.' },
    ...(own.properties as Record<string, Schema> | undefined),
  };
  const required = ['_class', ...((own.required as string[] | undefined) ?? [])];
  if (links) {
    properties._links = links;
    required.push('_links');
  }
  const names = Object.keys(embedded);
  if (names.length) {
    const members = Object.fromEntries(
      names.map((name) => [name, { type: 'array', items: schemaRef(componentName(embedded[name]!)) }]),
    );
    properties._embedded = { type: 'object', properties: members, required: names, additionalProperties: false };
    required.push('_embedded');
  }
  const out: Schema = { type: 'object', properties, required, additionalProperties: false };
  if (typeof description === 'string') out.description = description;
  return out;
}

function representationSchema(spec: RepresentationSpec): Schema {
  const rels = Object.keys(spec.relations);
  // Links appear when the caller may use them; the resource's own (`self`, an asset's `file`) always does.
  const always = rels.filter((rel) => rel === 'self' || rel === 'file');
  const links = rels.length ? linksSchema(spec.relations, always) : undefined;
  return halDocument([spec.class], spec.fields, links, spec.embedded, resolve(spec.fields).description);
}

const PAGING = { self: 'get', next: 'get', prev: 'get', first: 'get', last: 'get' };

function resultsSchema(item: string, spec: RepresentationSpec): Schema {
  const relations = Object.fromEntries(Object.entries(PAGING).map(([rel, method]) => [rel, { method, target: item }]));
  const links = linksSchema(relations, ['self']);
  const description = `A page of ${item} representations (\`_embedded.items\`), linked to the pages around it.`;
  return halDocument(['results', spec.class], schemaRef('ResultsFields'), links, { items: item }, description);
}

/**
 * Component schemas of every representation and of the results entity of each representation some relation
 * lists, by {@link componentName}.
 */
export function representationSchemas(): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const listed = new Set<string>();
  for (const [name, spec] of Object.entries(CONTRACT.representations)) {
    out[componentName(name)] = representationSchema(spec);
    for (const relation of Object.values(spec.relations)) {
      const { target } = relation;
      if (typeof target === 'string' && target.startsWith('results:')) listed.add(target.slice('results:'.length));
    }
  }
  for (const item of listed)
    out[componentName(`results:${item}`)] = resultsSchema(item, CONTRACT.representations[item]!);
  return out;
}

/** What following a relation of the contract does, wherever it is declared; `vars` from a declaration that has them. */
export function relationSpec(rel: string): RepresentationSpec['relations'][string] | undefined {
  let found: RepresentationSpec['relations'][string] | undefined;
  for (const spec of Object.values(CONTRACT.representations)) {
    const relation = spec.relations[rel];
    if (relation && (!found || (!found.vars && relation.vars))) found = relation;
  }
  return found;
}
