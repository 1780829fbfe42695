/**
 * Generates `server/src/openapi/contract.generated.json` from the SDK's wire contract (`sdk/src/contract`): a JSON
 * Schema (2020-12, as OpenAPI 3.1 takes it) of every contract type that travels on the wire, and the
 * representation table (each representation's `_class`, fields, embedded resources and relations with their verb,
 * target, template variables and body). The server assembles its OpenAPI document from it (server/src/openapi).
 *
 *   npx tsx scripts/openapi-contract.ts           write the file
 *   npx tsx scripts/openapi-contract.ts --check   exit 1 when the committed file is not what the contract gives
 *
 * A small walker on the TypeScript compiler API rather than a dependency: ts-json-schema-generator needs Node 22,
 * and the contract uses a handful of type forms, each mapped below; any other form is an error here, not a
 * silently loose schema. Every `number` of the contract is an integer (money in cents, counts, sizes, seconds).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { Contract, RelationSpec, RepresentationSpec, Schema } from '../server/src/openapi/contract-types.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CONTRACT_INDEX = join(ROOT, 'sdk', 'src', 'contract', 'index.ts');
/** Where the generated file is written. */
export const CONTRACT_MODULE = join(ROOT, 'server', 'src', 'openapi', 'contract.generated.json');

/**
 * Wire types the representation table does not reach: error bodies, the authorization service's forms, answers
 * and metadata, HAL's link objects, and each event type's `data` (the document's `webhooks` narrow the event to
 * each type).
 */
const ROOTS = [
  'ErrorBody',
  'OAuthErrorBody',
  'TokenResponse',
  'TokenRequest',
  'AuthorizeQuery',
  'AuthorizeDecisionForm',
  'AuthorizationServerMetadata',
  'Link',
  'Curie',
  'ResultsFields',
  'Scope',
  'EventDataMap',
];

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

class Walker {
  readonly schemas: Record<string, Schema> = {};
  readonly #checker: ts.TypeChecker;
  /** Exported, non-generic declarations of the contract, by name: these become components. */
  readonly #named = new Map<string, ts.Symbol>();

  constructor(program: ts.Program) {
    this.#checker = program.getTypeChecker();
    const file = program.getSourceFile(CONTRACT_INDEX);
    const module = file && this.#checker.getSymbolAtLocation(file);
    if (!module) throw new Error(`cannot read ${CONTRACT_INDEX}`);
    for (const symbol of this.#checker.getExportsOfModule(module)) {
      const declaration = symbol.declarations?.[0];
      const generic =
        declaration &&
        (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration)) &&
        declaration.typeParameters?.length;
      if (!generic) this.#named.set(symbol.name, symbol);
    }
  }

  /** The schema of an exported type, by name (emitted as a component). */
  component(name: string): Schema {
    const symbol = this.#named.get(name);
    if (!symbol) throw new Error(`the contract exports no non-generic type ${name}`);
    if (!this.schemas[name]) {
      this.schemas[name] = {}; // placed first: a type that refers to itself finds its reference
      const schema = this.#expand(this.#checker.getDeclaredTypeOfSymbol(symbol), name);
      this.schemas[name] = withDescription(schema, this.#doc(symbol));
    }
    return ref(name);
  }

  /** The schema of a type: a reference when it is a named contract type, else inline. */
  schema(type: ts.Type, where: string): Schema {
    const name = this.#nameOf(type);
    return name ? this.component(name) : this.#expand(type, where);
  }

  #nameOf(type: ts.Type): string | undefined {
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (!symbol || type.aliasTypeArguments?.length) return undefined;
    if (!type.aliasSymbol && !(symbol.flags & ts.SymbolFlags.Interface)) return undefined;
    return this.#named.get(symbol.name) === symbol ? symbol.name : undefined;
  }

  #doc(symbol: ts.Symbol): string {
    return ts.displayPartsToString(symbol.getDocumentationComment(this.#checker)).trim();
  }

  #expand(type: ts.Type, where: string): Schema {
    const c = this.#checker;
    const f = type.flags;
    if (f & ts.TypeFlags.String) return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'integer' };
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return {};
    if (type.isStringLiteral() || type.isNumberLiteral()) return { const: type.value };
    if (f & ts.TypeFlags.BooleanLiteral) return { const: c.typeToString(type) === 'true' };
    if (type.isUnion()) return this.#union(type, where);
    // `string & {}`: any string, written so that editors still offer the union's literals beside it.
    if (type.isIntersection() && type.types.some((t) => t.flags & ts.TypeFlags.String)) return { type: 'string' };
    if (c.isTupleType(type)) {
      const items = c.getTypeArguments(type as ts.TypeReference).map((t, i) => this.schema(t, `${where}[${i}]`));
      // A tuple of literals (`_class: ['errors']`) is one value, written as the representations' `_class` is.
      if (items.every((item) => 'const' in item)) return { const: items.map((item) => item.const) };
      return { type: 'array', prefixItems: items, items: false, minItems: items.length, maxItems: items.length };
    }
    if (c.isArrayType(type)) {
      const [item] = c.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: this.schema(item!, `${where}[]`) };
    }
    if (f & ts.TypeFlags.Object) return this.#object(type, where);
    throw new Error(`${where}: no JSON Schema for the type ${c.typeToString(type)}`);
  }

  /**
   * The named unions of literals among `members`, as references, and the members left. A union the compiler
   * built (`ProductSort | undefined` of an optional member, `EventType | '*'`) has lost its parts' names; without
   * this each use would repeat their literals.
   */
  #namedParts(members: ts.Type[]): { refs: Schema[]; rest: ts.Type[] } {
    let rest = members;
    const refs: Schema[] = [];
    for (const [name, parts] of this.#literalUnions) {
      // The union being declared is not a part of itself.
      if (this.schemas[name] && !Object.keys(this.schemas[name]).length) continue;
      if (parts.length > rest.length || !parts.every((part) => rest.includes(part))) continue;
      refs.push(this.component(name));
      rest = rest.filter((member) => !parts.includes(member));
    }
    return { refs, rest };
  }

  /** Exported unions of literals, the largest first (so that a union inside another is not taken first). */
  get #literalUnions(): [string, ts.Type[]][] {
    this.#literalUnionsCache ??= [...this.#named]
      .map(([name, symbol]): [string, ts.Type] => [name, this.#checker.getDeclaredTypeOfSymbol(symbol)])
      .filter(([, type]) => type.isUnion() && type.types.every((t) => t.isLiteral()))
      .map(([name, type]): [string, ts.Type[]] => [name, (type as ts.UnionType).types])
      .sort(([, a], [, b]) => b.length - a.length);
    return this.#literalUnionsCache;
  }
  #literalUnionsCache: [string, ts.Type[]][] | undefined;

  #union(type: ts.UnionType, where: string): Schema {
    const all = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
    if (all.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return { type: 'boolean' };
    const { refs, rest: members } = this.#namedParts(all);
    const schemas = [...refs, ...members.map((t) => this.schema(t, where))];
    if (schemas.length === 1) return schemas[0]!;
    if (schemas.every((s) => 'const' in s && Object.keys(s).length === 1)) return { enum: schemas.map((s) => s.const) };
    // `string | number`, `number | null`: one `type` list reads better than an anyOf.
    if (schemas.every((s) => typeof s.type === 'string' && Object.keys(s).length === 1)) {
      return { type: schemas.map((s) => s.type) };
    }
    // Objects told apart by a member's constant (the token endpoint's grants by `grant_type`): exactly one.
    return { [this.#discriminated(schemas) ? 'oneOf' : 'anyOf']: schemas };
  }

  /** Whether every schema is an object whose required member `name` has a constant of its own, for one `name`. */
  #discriminated(schemas: Schema[]): boolean {
    const objects = schemas.map((s) => (typeof s.$ref === 'string' ? this.schemas[s.$ref.split('/').pop()!] : s));
    const [first] = objects;
    const names = (first?.required as string[] | undefined) ?? [];
    return names.some((name) => {
      const values = objects.map((o) => {
        const member = (o?.properties as Record<string, Schema> | undefined)?.[name];
        return (o?.required as string[] | undefined)?.includes(name) && member && 'const' in member
          ? member.const
          : undefined;
      });
      return values.every((v) => v !== undefined) && new Set(values).size === values.length;
    });
  }

  #object(type: ts.Type, where: string): Schema {
    const c = this.#checker;
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const property of c.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      const propertyType = declaration
        ? c.getTypeOfSymbolAtLocation(property, declaration)
        : c.getTypeOfSymbol(property);
      properties[property.name] = withDescription(
        this.schema(propertyType, `${where}.${property.name}`),
        this.#doc(property),
      );
      if (!(property.flags & ts.SymbolFlags.Optional)) required.push(property.name);
    }
    const index = c.getIndexInfosOfType(type)[0];
    const schema: Schema = { type: 'object' };
    if (Object.keys(properties).length) schema.properties = properties;
    if (required.length) schema.required = required;
    // Closed unless the type has an index signature: a member the contract does not name is drift.
    schema.additionalProperties = index ? this.schema(index.type, `${where}[key]`) : false;
    return schema;
  }

  /** The representation table, from `Representations`. */
  representations(): Record<string, RepresentationSpec> {
    const c = this.#checker;
    const table = this.#named.get('Representations');
    if (!table) throw new Error('the contract exports no Representations');
    const out: Record<string, RepresentationSpec> = {};
    for (const entry of c.getPropertiesOfType(c.getDeclaredTypeOfSymbol(table))) {
      const representation = c.getTypeOfSymbol(entry);
      const part = (name: string) => c.getTypeOfSymbol(representation.getProperty(name)!);
      const embedded: Record<string, string> = {};
      for (const member of c.getPropertiesOfType(part('embedded'))) {
        embedded[member.name] = literal(c.getTypeOfSymbol(member), `${entry.name}.embedded.${member.name}`);
      }
      const relations: Record<string, RelationSpec> = {};
      for (const relation of c.getPropertiesOfType(part('relations'))) {
        const where = `${entry.name}.relations.${relation.name}`;
        const shape = c.getTypeOfSymbol(relation);
        const of = (name: string) => c.getTypeOfSymbol(shape.getProperty(name)!);
        const spec: RelationSpec = {
          method: literal(of('method'), `${where}.method`),
          target: targets(of('target'), `${where}.target`),
        };
        if (!(of('vars').flags & ts.TypeFlags.Never)) spec.vars = this.schema(of('vars'), `${where}.vars`);
        if (!(of('body').flags & ts.TypeFlags.Never)) spec.body = this.schema(of('body'), `${where}.body`);
        relations[relation.name] = spec;
      }
      out[entry.name] = {
        class: literal(part('class'), `${entry.name}.class`),
        fields: this.schema(part('fields'), `${entry.name}.fields`),
        embedded,
        relations,
      };
    }
    return out;
  }
}

function literal(type: ts.Type, where: string): string {
  if (!type.isStringLiteral()) throw new Error(`${where}: expected a string literal type`);
  return type.value;
}

/** A relation's target: one representation name, or several when the link leads to one of them (`svc:subject`). */
function targets(type: ts.Type, where: string): string | string[] {
  if (!type.isUnion()) return literal(type, where);
  return type.types.map((member) => literal(member, where));
}

function withDescription(schema: Schema, description: string): Schema {
  return description ? { ...schema, description } : schema;
}

/** The contract, read from the SDK's sources. */
export function readContract(): Contract {
  const configPath = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configPath);
  const walker = new Walker(ts.createProgram({ rootNames: [CONTRACT_INDEX], options }));
  const representations = walker.representations();
  for (const name of ROOTS) walker.component(name);
  const schemas = Object.fromEntries(Object.entries(walker.schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { schemas, representations };
}

/** The generated file's text: data, read through `server/src/openapi/contract.ts`. */
export function contractModule(contract: Contract = readContract()): string {
  return `${JSON.stringify(contract, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = contractModule();
  if (process.argv.includes('--check')) {
    const current = await readFile(CONTRACT_MODULE, 'utf8').catch(() => '');
    if (current !== text) {
      console.error(`${CONTRACT_MODULE} is stale: run npm run docs`);
      process.exit(1);
    }
  } else {
    await writeFile(CONTRACT_MODULE, text);
    console.log(`wrote ${CONTRACT_MODULE}`);
  }
}
