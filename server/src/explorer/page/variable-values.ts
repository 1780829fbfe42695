/**
 * A template variable's value as the contract types it: the form's fields give text, but `per_page` is a
 * number in the SDK's types, so the request and its "Copy as SDK code" carry `per_page: 5`, which strict
 * TypeScript accepts where `"5"` is refused.
 */
import type { Representations } from '@storefront-platform/sdk/internal';

type Relations = { [R in keyof Representations]: Representations[R]['relations'] };
/** Every relation of the contract, as one union. */
type AnyRelation = { [R in keyof Relations]: Relations[R][keyof Relations[R]] }[keyof Relations];
/** The variables of each templated relation (a union of objects). */
type VarsOf<T> = T extends { vars: infer V } ? V : never;

/** What a variable's text becomes: the contract's non-string types. */
type Kind<T> = NonNullable<T> extends number ? 'number' : NonNullable<T> extends boolean ? 'boolean' : never;
/** `[name, kind]` for each variable of `V` that is not text. */
type Typed<V> = V extends object
  ? { [K in keyof V]-?: [Kind<V[K]>] extends [never] ? never : [K, Kind<V[K]>] }[keyof V]
  : never;
type Pairs = Typed<VarsOf<AnyRelation>>;

// Exactly the contract's typed variables: one added there (or made text) fails compilation until listed here.
const KINDS: { [P in Pairs as P[0] & string]: P[1] } = { page: 'number', per_page: 'number', wait: 'number' };

const kinds: Readonly<Record<string, 'number' | 'boolean'>> = KINDS;

/**
 * The value of variable `name` typed in as `text`: a number or a boolean where the contract says so and the
 * text is one; otherwise the text itself, so that the SDK or the server says what is wrong with it.
 */
export function variableValue(name: string, text: string): string | number | boolean {
  const kind = Object.hasOwn(kinds, name) ? kinds[name] : undefined;
  const trimmed = text.trim();
  if (kind === 'number' && /^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (kind === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  return text;
}

/** The template variables of a form's fields (`name`, text typed in), typed; the fields left empty left out. */
export function variableArgs(fields: Iterable<{ name: string; value: string }>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const { name, value } of fields) if (value !== '') args[name] = variableValue(name, value);
  return args;
}
