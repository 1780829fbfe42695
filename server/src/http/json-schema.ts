/**
 * Checking a parsed JSON value against a JSON Schema (2020-12) given as data: the subset the wire contract's
 * generated schemas use (`type`, `enum`, `const`, `properties`, `required`, `additionalProperties`, `items`,
 * `anyOf`, `oneOf`, `$ref`) and the bounds a schema may state (`minLength`, `maxLength`, `pattern`, `minimum`,
 * `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minItems`, `maxItems`, `uniqueItems`). An interpreter, not a compiler: the server's core also runs in browsers (MSW), where a
 * page's Content Security Policy may refuse code generated at run time. Annotations (`description`, `examples`,
 * and `format`, an annotation in 2020-12) are ignored; any other keyword is an error of the schema, not a value let
 * through unchecked.
 */

/** A JSON Schema as plain data. */
export type Schema = { readonly [keyword: string]: unknown };

/** The schema a `$ref` names. */
export type ResolveRef = (ref: string) => Schema;

/** Why a value does not match: where (member names and item indexes from the top) and what it must be. */
export interface SchemaProblem {
  path: readonly (string | number)[];
  message: string;
}

const ANNOTATIONS = new Set([
  'description',
  'examples',
  'title',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'format',
  'contentEncoding',
  'contentMediaType',
]);

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const PLURAL: Record<string, string> = { string: 'strings', integer: 'integers', boolean: 'booleans' };

const IS: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isSafeInteger(value),
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  array: (value) => Array.isArray(value),
  null: (value) => value === null,
};

/** `a, b or c`. */
function either(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** What a value of `schema`'s type is called: `an array of strings` reads better than `an array`. */
function typeName(type: string, schema: Schema): string {
  const items = schema.items as Schema | undefined;
  const of = typeof items?.type === 'string' ? PLURAL[items.type] : undefined;
  if (type === 'array' && of) return `an array of ${of}`;
  const article = ARTICLE[type];
  if (!article) throw new Error(`JSON Schema: unknown type ${type}`);
  return article;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * Every value `members` allow, when each is a `const` or an `enum` (named or not), as a union of named values is
 * (`EventType` or `"*"`): a refusal then lists them; `undefined` for any other form.
 */
function valuesOf(members: readonly Schema[], resolve: ResolveRef): unknown[] | undefined {
  const values: unknown[] = [];
  for (let member of members) {
    if (typeof member.$ref === 'string') member = resolve(member.$ref);
    if ('const' in member) values.push(member.const);
    else if (Array.isArray(member.enum)) values.push(...member.enum);
    else return undefined;
  }
  return values;
}

/** The first problem of `value` against `schema`, or `undefined` when it matches. */
export function schemaProblem(
  value: unknown,
  schema: Schema,
  resolve: ResolveRef,
  path: readonly (string | number)[] = [],
): SchemaProblem | undefined {
  const problem = (message: string): SchemaProblem => ({ path, message });
  if (typeof schema.$ref === 'string') return schemaProblem(value, resolve(schema.$ref), resolve, path);
  for (const keyword of Object.keys(schema)) {
    if (!Object.hasOwn(CHECKED, keyword) && !ANNOTATIONS.has(keyword)) {
      throw new Error(`JSON Schema: the keyword ${keyword} is not supported`);
    }
  }
  if (schema.type !== undefined) {
    const types = typeof schema.type === 'string' ? [schema.type] : (schema.type as string[]);
    if (!types.some((type) => IS[type]?.(value))) {
      return problem(`must be ${either(types.map((type) => typeName(type, schema)))}`);
    }
  }
  if ('const' in schema && value !== schema.const) return problem(`must be ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    return problem(`must be ${either(schema.enum.map((member) => JSON.stringify(member)))}`);
  }
  if (Array.isArray(schema.anyOf)) {
    const members = schema.anyOf as Schema[];
    if (!members.some((member) => !schemaProblem(value, member, resolve, path))) {
      const values = valuesOf(members, resolve);
      return problem(
        values ? `must be ${either(values.map((v) => JSON.stringify(v)))}` : 'matches none of the forms it may take',
      );
    }
  }
  if (Array.isArray(schema.oneOf)) {
    const matches = (schema.oneOf as Schema[]).filter((member) => !schemaProblem(value, member, resolve, path));
    if (matches.length !== 1) return problem('must match exactly one of the forms it may take');
  }
  if (typeof value === 'string') return stringProblem(value, schema, problem);
  if (typeof value === 'number') return numberProblem(value, schema, problem);
  if (Array.isArray(value)) return arrayProblem(value, schema, resolve, path, problem);
  if (IS.object!(value)) return objectProblem(value as Record<string, unknown>, schema, resolve, path);
  return undefined;
}

/** The keywords {@link schemaProblem} asserts (`$ref` aside). */
const CHECKED = Object.fromEntries(
  [
    '$ref',
    'type',
    'const',
    'enum',
    'anyOf',
    'oneOf',
    'minLength',
    'maxLength',
    'pattern',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'items',
    'minItems',
    'maxItems',
    'uniqueItems',
    'properties',
    'required',
    'additionalProperties',
  ].map((keyword) => [keyword, true]),
);

type Problem = (message: string) => SchemaProblem;

function stringProblem(value: string, schema: Schema, problem: Problem): SchemaProblem | undefined {
  // JSON Schema counts characters as code points.
  const length = [...value].length;
  const { minLength, maxLength, pattern } = schema as { minLength?: number; maxLength?: number; pattern?: string };
  if (minLength !== undefined && length < minLength) {
    return problem(minLength === 1 ? 'must not be empty' : `must be at least ${count(minLength, 'character')}`);
  }
  if (maxLength !== undefined && length > maxLength) return problem(`must be at most ${count(maxLength, 'character')}`);
  if (pattern !== undefined && !new RegExp(pattern, 'u').test(value)) return problem(`must match ${pattern}`);
  return undefined;
}

function numberProblem(value: number, schema: Schema, problem: Problem): SchemaProblem | undefined {
  const { exclusiveMinimum: above, exclusiveMaximum: below } = schema as {
    exclusiveMinimum?: number;
    exclusiveMaximum?: number;
  };
  if (above !== undefined && value <= above) return problem(`must be more than ${above}`);
  if (below !== undefined && value >= below) return problem(`must be less than ${below}`);
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  const outside = (minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum);
  if (!outside) return undefined;
  if (minimum === undefined) return problem(`must be at most ${maximum}`);
  return problem(maximum === undefined ? `must be at least ${minimum}` : `must be from ${minimum} to ${maximum}`);
}

function arrayProblem(
  value: readonly unknown[],
  schema: Schema,
  resolve: ResolveRef,
  path: readonly (string | number)[],
  problem: Problem,
): SchemaProblem | undefined {
  const { minItems, maxItems } = schema as { minItems?: number; maxItems?: number };
  if (minItems !== undefined && value.length < minItems) {
    return problem(minItems === 1 ? 'must not be empty' : `must hold at least ${count(minItems, 'item')}`);
  }
  if (maxItems !== undefined && value.length > maxItems) return problem(`must hold at most ${count(maxItems, 'item')}`);
  if (schema.uniqueItems === true) {
    const seen = value.map((item) => JSON.stringify(item));
    if (new Set(seen).size !== seen.length) return problem('must not hold the same item twice');
  }
  const items = schema.items as Schema | undefined;
  if (!items) return undefined;
  for (const [index, item] of value.entries()) {
    const found = schemaProblem(item, items, resolve, [...path, index]);
    if (found) return found;
  }
  return undefined;
}

function objectProblem(
  value: Record<string, unknown>,
  schema: Schema,
  resolve: ResolveRef,
  path: readonly (string | number)[],
): SchemaProblem | undefined {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const others = schema.additionalProperties as Schema | boolean | undefined;
  // Members in the order they came, then the missing ones: the first problem a reader of the body meets.
  for (const [key, member] of Object.entries(value)) {
    const memberSchema = Object.hasOwn(properties, key) ? properties[key] : others;
    if (memberSchema === false) {
      return { path: [...path, key], message: `unknown field; accepted: ${Object.keys(properties).join(', ')}` };
    }
    if (memberSchema === undefined || memberSchema === true) continue;
    const found = schemaProblem(member, memberSchema, resolve, [...path, key]);
    if (found) return found;
  }
  for (const key of (schema.required ?? []) as string[]) {
    if (!Object.hasOwn(value, key)) return { path: [...path, key], message: 'is required' };
  }
  return undefined;
}
