import { parse } from 'uri-template';
import { TemplateVariableError } from '../errors/template-variable-error.js';

/** Values a template variable takes: lists become comma-separated (RFC 6570 §2.4); `null`/`undefined` are omitted. */
export type TemplateValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

interface CompiledTemplate {
  expand(values: Record<string, unknown>): string;
  /** Every variable, in order. */
  declared: string[];
  /** Variables of simple, reserved, label and path expansions: the URL is wrong without them. */
  required: string[];
}

/** Operators whose expansion is part of the path; form-style (`?`, `&`), `;` and `#` expansions are optional. */
const PATH_OPERATORS = new Set(['', '+', '/', '.']);
const compiled = new Map<string, CompiledTemplate>();
const COMPILED_LIMIT = 500;

function compile(template: string): CompiledTemplate {
  let entry = compiled.get(template);
  if (entry) return entry;
  const { ast, expand } = parse(template);
  const declared: string[] = [];
  const required: string[] = [];
  for (const part of ast.parts) {
    if (part.type !== 'expression') continue;
    for (const variable of part.variables) {
      declared.push(variable.name);
      if (PATH_OPERATORS.has(part.operator)) required.push(variable.name);
    }
  }
  entry = { expand, declared, required };
  if (compiled.size >= COMPILED_LIMIT) compiled.clear();
  compiled.set(template, entry);
  return entry;
}

function stringify(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value;
}

/** Variables declared by an RFC 6570 template, in order. */
export function templateVariables(template: string): readonly string[] {
  return compile(template).declared;
}

/**
 * Expands `template` with the template's own variables taken from `args`; returns the URL and the arguments
 * it did not declare (left for the caller: a request body, or an error). A missing path variable throws.
 */
export function expandTemplate(
  template: string,
  args: Readonly<Record<string, unknown>>,
): { url: string; unused: Record<string, unknown> } {
  const { expand, declared, required } = compile(template);
  const missing = required.filter((name) => args[name] === undefined || args[name] === null || args[name] === '');
  if (missing.length) throw new TemplateVariableError({ reason: 'missing', variables: missing, template, declared });
  const values: Record<string, unknown> = {};
  const unused: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (declared.includes(name)) values[name] = stringify(value);
    else unused[name] = value;
  }
  return { url: expand(values), unused };
}
