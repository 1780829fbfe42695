/**
 * RFC 6570 URI templates, all four levels: parsed once per template (bounded cache), expanded with UTF-8
 * percent-encoding of whole code points, so that an emoji becomes `%F0%9F%98%80`. Ours rather than a package's: the
 * one this replaced encoded characters outside the Basic Multilingual Plane as two invalid 3-byte sequences, and
 * weighed a tenth of a browser app's bundle.
 */
import { TemplateVariableError } from '../errors/template-variable-error.js';
import { Lru } from '../shared/lru.js';

interface VarSpec {
  name: string;
  /** `{name:3}`: the first 3 characters of a string value. */
  prefix?: number;
  /** `{name*}`: each list member or map pair on its own. */
  explode: boolean;
}

interface Expression {
  operator: string;
  variables: VarSpec[];
}

interface CompiledTemplate {
  /** Literals, already encoded, between expressions. */
  parts: (string | Expression)[];
  /** Every variable, in order. */
  declared: string[];
  /** Variables of simple, reserved, label and path expansions: the URL is wrong without them. */
  required: string[];
}

/** Operators whose expansion is part of the path; form-style (`?`, `&`), `;` and `#` expansions are optional. */
const PATH_OPERATORS = '+/.';
/** Templates come from documents: bounded, so that a long session over many distinct templates stays small. */
const compiled = new Lru<string, CompiledTemplate>({ maxEntries: 500 });

const EXPRESSION = /\{([+#./;?&]?)([^{}]*)\}/g;
/** RFC 6570 §2.3 varspec: a varname (ALPHA / DIGIT / _ / pct-encoded, dot-separated) and a prefix or explode modifier. */
const VARSPEC = /^((?:\w|%[\da-f]{2})(?:\.?(?:\w|%[\da-f]{2}))*)(?::([1-9]\d{0,3})|(\*))?$/i;

/**
 * `value` percent-encoded as UTF-8, leaving the unreserved characters and, with `reserved`, the reserved ones and
 * percent-encoded triplets already there (RFC 6570 §3.2.1).
 */
function encode(value: string, reserved: boolean): string {
  if (!reserved)
    return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  // encodeURI keeps the reserved set but `[`, `]` and `%`: put the brackets back, then the `%` of each triplet that
  // was there (`%41` became `%2541`).
  return encodeURI(value)
    .replace(/%5B/g, '[')
    .replace(/%5D/g, ']')
    .replace(/%25(?=[\da-f]{2})/gi, '%');
}

/**
 * Parses an RFC 6570 template, checking its syntax, into encoded literals and expressions, with its variables.
 */
function compile(template: string): CompiledTemplate {
  const cached = compiled.get(template);
  if (cached) return cached;
  const invalid = (why: string) => new TypeError(`Invalid URI template ${template}: ${why}`);
  const entry: CompiledTemplate = { parts: [], declared: [], required: [] };
  let literalStart = 0;
  const literal = (end: number) => {
    const value = template.slice(literalStart, end);
    if (/[{}]/.test(value)) throw invalid('unbalanced braces');
    if (value) entry.parts.push(encode(value, true));
  };
  for (const match of template.matchAll(EXPRESSION)) {
    literal(match.index);
    const operator = match[1] ?? '';
    const variables = (match[2] ?? '').split(',').map((spec): VarSpec => {
      const parsed = VARSPEC.exec(spec);
      if (!parsed) throw invalid(`bad variable "${spec}"`);
      const [, name = '', prefix, explode] = parsed;
      entry.declared.push(name);
      if (!operator || PATH_OPERATORS.includes(operator)) entry.required.push(name);
      return { name, prefix: prefix ? Number(prefix) : undefined, explode: !!explode };
    });
    entry.parts.push({ operator, variables });
    literalStart = match.index + match[0].length;
  }
  literal(template.length);
  compiled.set(template, entry);
  return entry;
}

/** One expression's expansion (RFC 6570 appendix A); `''` when none of its variables is defined. */
function expandExpression({ operator, variables }: Expression, values: Readonly<Record<string, unknown>>): string {
  // RFC 6570 appendix A, per operator: what comes first, the separator, whether values are named (`;x=1`), what
  // an empty named value gets, and whether reserved characters pass unencoded.
  const form = operator === '?' || operator === '&';
  const first = operator === '+' ? '' : operator;
  const separator = form ? '&' : '.;/'.includes(operator || ',') ? operator : ',';
  const named = form || operator === ';';
  const ifEmpty = form ? '=' : '';
  const reserved = operator === '+' || operator === '#';
  const enc = (value: unknown) => encode(String(value), reserved);
  /** `name=value`, or what an empty value gets. */
  const pair = (name: string, value: string) => (value === '' ? name + ifEmpty : `${name}=${value}`);
  const out: string[] = [];
  for (const { name, prefix, explode } of variables) {
    const value = values[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'object') {
      const text = String(value);
      const cut = enc(prefix === undefined ? text : Array.from(text).slice(0, prefix).join(''));
      out.push(named ? pair(name, cut) : cut);
      continue;
    }
    if (prefix !== undefined)
      throw new TypeError(`{${operator}${name}:${prefix}}: a prefix applies to a string, not a list or map`);
    // A list, or a map of its own enumerable pairs; either is undefined when empty.
    const entries = Array.isArray(value) ? value.map((v) => [undefined, v] as const) : Object.entries(value);
    const defined = entries.filter(([, v]) => v !== undefined && v !== null);
    if (defined.length === 0) continue;
    if (!explode) {
      const joined = defined.flatMap(([k, v]) => (k === undefined ? [enc(v)] : [enc(k), enc(v)])).join(',');
      out.push(named ? pair(name, joined) : joined);
    } else {
      for (const [k, v] of defined) {
        // Unnamed operators give a map's pairs as `key=value` even when the value is empty.
        if (!named) out.push(k === undefined ? enc(v) : `${enc(k)}=${enc(v)}`);
        else out.push(pair(k === undefined ? name : enc(k), enc(v)));
      }
    }
  }
  return out.length ? first + out.join(separator) : '';
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
 * it did not declare (left for the caller: a request body, or an error). Where it departs from RFC 6570: a path
 * variable that would expand to nothing (absent, `null`, `''`, an empty list or map, a `Date`) throws a
 * `TemplateVariableError`, unless `strict` is `false`.
 */
export function expandTemplate(
  template: string,
  args: Readonly<Record<string, unknown>>,
  strict = true,
): { url: string; unused: Record<string, unknown> } {
  const { parts, declared, required } = compile(template);
  // An empty list or map expands to nothing, as does an object with no entries of its own (a Date): missing too.
  const missing = (strict ? required : []).filter((name) => {
    const value = args[name];
    return value == null || value === '' || (typeof value === 'object' && Object.keys(value).length === 0);
  });
  if (missing.length) throw new TemplateVariableError({ reason: 'missing', variables: missing, template, declared });
  const values: Record<string, unknown> = {};
  const unused: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (declared.includes(name)) values[name] = value;
    else unused[name] = value;
  }
  const url = parts.map((part) => (typeof part === 'string' ? part : expandExpression(part, values))).join('');
  return { url, unused };
}
