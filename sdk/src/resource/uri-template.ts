import type { Expression, Template, Variable } from 'uri-template/dist/ast.js';
import { expandTemplate as expandAst } from 'uri-template/dist/expander.js';
import { TemplateVariableError } from '../errors/template-variable-error.js';
import { Lru } from '../shared/lru.js';

interface CompiledTemplate {
  ast: Template;
  /** Every variable, in order. */
  declared: string[];
  /** Variables of simple, reserved, label and path expansions: the URL is wrong without them. */
  required: string[];
}

/** Operators whose expansion is part of the path; form-style (`?`, `&`), `;` and `#` expansions are optional. */
const PATH_OPERATORS = new Set(['', '+', '/', '.']);
/** Templates come from documents: bounded, so that a long session over many distinct templates stays small. */
const compiled = new Lru<string, CompiledTemplate>({ maxEntries: 500 });

const EXPRESSION = /\{([+#./;?&]?)([^{}]*)\}/g;
/** RFC 6570 §2.3 varspec: a varname (ALPHA / DIGIT / _ / pct-encoded, dot-separated) and a prefix or explode modifier. */
const VARSPEC = /^((?:\w|%[\da-f]{2})(?:\.?(?:\w|%[\da-f]{2}))*)(?::([1-9]\d{0,3})|(\*))?$/i;

/**
 * Parses an RFC 6570 template into the AST that `uri-template` expands, with its variables. The parsing is ours
 * because the package's generated parser alone weighs more than half of it in a browser bundle; the expansion
 * (operators, encoding, lists) is the package's.
 */
function compile(template: string): CompiledTemplate {
  const cached = compiled.get(template);
  if (cached) return cached;
  const invalid = (why: string) => new TypeError(`Invalid URI template ${template}: ${why}`);
  const entry: CompiledTemplate = { ast: { type: 'template', parts: [] }, declared: [], required: [] };
  const { parts } = entry.ast;
  let literalStart = 0;
  const literal = (end: number) => {
    const value = template.slice(literalStart, end);
    if (/[{}]/.test(value)) throw invalid('unbalanced braces');
    if (value) parts.push({ type: 'literal', value });
  };
  for (const match of template.matchAll(EXPRESSION)) {
    literal(match.index);
    const operator = (match[1] ?? '') as Expression['operator'];
    const variables = (match[2] ?? '').split(',').map((spec): Variable => {
      const parsed = VARSPEC.exec(spec);
      if (!parsed) throw invalid(`bad variable "${spec}"`);
      const [, name = '', prefix, explode] = parsed;
      entry.declared.push(name);
      if (PATH_OPERATORS.has(operator)) entry.required.push(name);
      if (prefix) return { type: 'variable', name, modifier: { type: 'substr', length: Number(prefix) } };
      return explode ? { type: 'variable', name, modifier: { type: 'explode' } } : { type: 'variable', name };
    });
    parts.push({ type: 'expression', operator, variables });
    literalStart = match.index + match[0].length;
  }
  literal(template.length);
  compiled.set(template, entry);
  return entry;
}

/** Variables declared by an RFC 6570 template, in order. */
export function templateVariables(template: string): readonly string[] {
  return compile(template).declared;
}

/** A variable of a URI template, and whether {@link expandTemplate} needs a value for it. */
export interface TemplateVariable {
  name: string;
  /**
   * The variable is in a simple, reserved, label or path expansion (`{id}`, `{+path}`, `{.ext}`, `{/id}`)
   * somewhere in the template: expanding without a value (or with `''`) throws. Variables only of form-style
   * (`{?q}`, `{&q}`), path-style parameter (`{;x}`) or fragment (`{#x}`) expansions may be left out.
   */
  required: boolean;
}

/**
 * Each variable of an RFC 6570 template once, in order of first appearance, with whether {@link expandTemplate}
 * requires it: what a form that fills the template in must ask for. Throws a `TypeError` for a malformed template.
 */
export function describeTemplateVariables(template: string): TemplateVariable[] {
  const { declared, required } = compile(template);
  return [...new Set(declared)].map((name) => ({ name, required: required.includes(name) }));
}

/**
 * Expands `template` with the template's own variables taken from `args`; returns the URL and the arguments
 * it did not declare (left for the caller: a request body, or an error). A missing path variable throws.
 */
export function expandTemplate(
  template: string,
  args: Readonly<Record<string, unknown>>,
): { url: string; unused: Record<string, unknown> } {
  const { ast, declared, required } = compile(template);
  const missing = required.filter((name) => args[name] === undefined || args[name] === null || args[name] === '');
  if (missing.length) throw new TemplateVariableError({ reason: 'missing', variables: missing, template, declared });
  const values: Record<string, unknown> = {};
  const unused: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (declared.includes(name)) values[name] = value;
    else unused[name] = value;
  }
  return { url: expandAst(ast, values), unused };
}
