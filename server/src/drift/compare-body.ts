/**
 * A representation's body against its schema in the OpenAPI document, each of Ajv's errors turned into a
 * disagreement named for what it is (a field missing, a relation's method…) and placed on the kind it concerns:
 * a variant's field is the `ProductVariant`'s, not the product's. Values are not compared, only shapes and types:
 * ids, dates and links differ from one API to another and are no drift.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { ContractView } from './contract-view.js';
import type { Disagreement } from './report.js';

type Found = Omit<Disagreement, 'count' | 'example'>;

/** A JSON type's name for a message. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (Number.isInteger(value)) return 'an integer';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Where an instance path points: the kind of the innermost embedded representation and the path within it. */
interface Place {
  /** The representation (or results entity) name. */
  name: string;
  /** Path segments within it, indexes as `[]`. */
  path: string[];
  /** The parent of the last segment's value, and that value. */
  value: unknown;
}

function placeOf(view: ContractView, name: string, document: unknown, pointer: string): Place {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  let place: Place = { name, path: [], value: document };
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const value = (place.value as Record<string, unknown> | undefined)?.[segment];
    const member = segments[i + 1];
    const index = segments[i + 2];
    const embeddedName = member === undefined ? undefined : view.embedded(place.name)[member];
    if (segment === '_embedded' && embeddedName && index !== undefined && /^\d+$/.test(index)) {
      const inner = (value as Record<string, unknown[]>)[member!]?.[Number(index)];
      place = { name: embeddedName, path: [], value: inner };
      i += 2;
      continue;
    }
    place = { name: place.name, path: [...place.path, /^\d+$/.test(segment) ? '[]' : segment], value };
  }
  return place;
}

const dotted = (path: string[]) => path.join('.').replaceAll('.[]', '[]') || '(the document)';

/** The method a link says, as the contract writes methods. */
const methodOf = (link: unknown) => ((link as { method?: unknown })?.method ?? 'get') as string;

/** One error, as a disagreement. */
function disagreement(view: ContractView, name: string, document: unknown, error: ErrorObject): Found {
  const at = placeOf(view, name, document, error.instancePath);
  const kind = view.kindOf(at.name);
  const path = at.path;
  const last = path.at(-1);
  const parent = path.at(-2);
  const where = ` (at ${error.instancePath || '/'})`;
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    if (last === '_links')
      return {
        kind,
        check: 'relation-missing',
        path: dotted([...path, missing]),
        message: `the contract requires the relation ${missing}; the answer has none${where}`,
      };
    if (last === '_embedded' || missing === '_embedded') {
      return {
        kind,
        check: 'embedded-shape',
        path: dotted([...path, missing]),
        message: `the contract requires ${missing === '_embedded' ? '_embedded' : `_embedded.${missing}`}; the answer has none${where}`,
      };
    }
    return {
      kind,
      check: 'field-missing',
      path: dotted([...path, missing]),
      message: `the contract requires ${missing}; the answer has none${where}`,
    };
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    if (last === '_links') {
      return {
        kind,
        check: 'relation-unexpected',
        path: dotted([...path, extra]),
        message: `the contract gives ${kind} no relation ${extra}${where}`,
      };
    }
    if (last === '_embedded') {
      return {
        kind,
        check: 'embedded-shape',
        path: dotted([...path, extra]),
        message: `the contract gives ${kind} no _embedded.${extra}${where}`,
      };
    }
    return {
      kind,
      check: 'field-extra',
      path: dotted([...path, extra]),
      message: `the contract has no field ${extra}${where}`,
    };
  }
  if (path.length >= 3 && path.at(-3) === '_links' && last === 'method') {
    const rel = path.at(-2)!;
    const expected = view.target(at.name, rel)?.method ?? 'get';
    const link = placeOf(view, name, document, error.instancePath.replace(/\/method$/, '')).value;
    return {
      kind,
      check: 'relation-method',
      path: dotted(path.slice(0, -1)),
      message: `the contract follows ${rel} with ${expected.toUpperCase()}; the link says ${methodOf(link).toUpperCase()}${where}`,
    };
  }
  if (error.keyword === 'type') {
    const expected = (error.params as { type: string | string[] }).type;
    const types = (Array.isArray(expected) ? expected : String(expected).split(','))
      .map((type) => (type === 'null' ? 'null' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`))
      .join(' or ');
    if (parent === '_embedded') {
      return {
        kind,
        check: 'embedded-shape',
        path: dotted(path),
        message: `every _embedded member is ${types}; ${last} is ${typeOf(at.value)}${where}`,
      };
    }
    return {
      kind,
      check: 'field-type',
      path: dotted(path),
      message: `the contract says ${types}; the answer has ${typeOf(at.value)}${where}`,
    };
  }
  if (error.keyword === 'false schema') {
    return {
      kind,
      check: 'field-extra',
      path: dotted(path),
      message: `the contract has no ${last ?? 'member'} here${where}`,
    };
  }
  return {
    kind,
    check: 'field-value',
    path: dotted(path),
    message: `${error.message ?? 'not allowed'}: ${JSON.stringify(at.value)?.slice(0, 80)}${where}`,
  };
}

/**
 * Ajv's errors without those of the members of a failed `anyOf` / `oneOf`: the failure of the whole says it.
 */
function essential(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.schemaPath}/`);
  return errors.filter((e) => !unions.some((union) => e.schemaPath.startsWith(union)));
}

/** Every disagreement of `document`, read as the representation `name`. */
export function compareBody(view: ContractView, name: string, document: unknown): Found[] {
  const errors = essential(view.validate(name, document));
  return errors.map((error) => disagreement(view, name, document, error));
}
