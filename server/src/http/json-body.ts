/**
 * Reading a JSON request body against a tiny declarative field spec: the media type (415), the size
 * (413), the syntax (400), then each member (422 on the field: unknown, missing or of the wrong type).
 */
import { IDENTITY_ONLY, unsupportedEncoding } from '../core/body-encoding.js';
import { BodyTooLargeError } from '../core/body-limit.js';
import type { CoreRequest } from '../core/types.js';
import { badRequest, HttpError, validationError } from './http-error.js';

/** JSON types a body member may have. */
export type FieldType = 'string' | 'integer' | 'boolean' | 'object' | 'string[]';

/** One member of a body: its type, or the types it may have, and whether it must be present. */
export interface FieldRule {
  type: FieldType | readonly FieldType[];
  required?: boolean;
}

/** Body members by name. */
export type BodySpec = Readonly<Record<string, FieldRule>>;

interface TypeOf {
  string: string;
  integer: number;
  boolean: boolean;
  object: Record<string, unknown>;
  'string[]': string[];
}

/** The value type of a rule's `type`. */
type ValueOf<T extends FieldRule['type']> = T extends readonly FieldType[] ? TypeOf[T[number]] : TypeOf[T & FieldType];

/** The typed body a spec describes. */
export type BodyOf<S extends BodySpec> = {
  [K in keyof S as S[K]['required'] extends true ? K : never]: ValueOf<S[K]['type']>;
} & {
  [K in keyof S as S[K]['required'] extends true ? never : K]?: ValueOf<S[K]['type']>;
};

const CHECKS: Record<FieldType, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isSafeInteger(value),
  boolean: (value) => typeof value === 'boolean',
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'string[]': (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
};

const ARTICLE: Record<FieldType, string> = {
  string: 'a string',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  'string[]': 'an array of strings',
};

/** Whether a `Content-Type` value names JSON (`application/json`, `application/*+json`). */
export function isJsonType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json'));
}

/** The body's bytes, 415 when encoded, 413 past `limit` (also when the shell's own cap stopped reading). */
export async function readBytes(request: CoreRequest, limit: number): Promise<Uint8Array> {
  const encoded = unsupportedEncoding(request.headers);
  if (encoded) throw new HttpError(415, encoded, undefined, IDENTITY_ONLY);
  let bytes: Uint8Array;
  try {
    bytes = await request.body();
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge(limit);
    throw error;
  }
  if (bytes.byteLength > limit) throw tooLarge(limit);
  return bytes;
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body too large: at most ${limit} bytes`);
}

/**
 * Reads and validates a JSON object body. The result holds only the spec's members, on an object without
 * a prototype, so that keys such as `__proto__` (rejected as unknown anyway) can never reach one.
 */
export async function readJson<S extends BodySpec>(request: CoreRequest, spec: S, limit: number): Promise<BodyOf<S>> {
  if (!isJsonType(request.headers.get('content-type'))) {
    throw new HttpError(415, 'Unsupported body type: send application/json');
  }
  const bytes = await readBytes(request, limit);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw badRequest('Malformed JSON body');
  }
  if (!CHECKS.object(value)) throw badRequest('The body must be a JSON object');
  return checkFields(value as Record<string, unknown>, spec);
}

/** Validates a parsed object against a spec. */
function checkFields<S extends BodySpec>(value: Record<string, unknown>, spec: S): BodyOf<S> {
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) {
    const rule = Object.hasOwn(spec, key) ? spec[key] : undefined;
    if (!rule) throw validationError(key, `unknown field; accepted: ${Object.keys(spec).join(', ')}`);
    const member = value[key];
    const types: readonly FieldType[] = typeof rule.type === 'string' ? [rule.type] : rule.type;
    if (!types.some((type) => CHECKS[type](member))) {
      throw validationError(key, `must be ${types.map((type) => ARTICLE[type]).join(' or ')}`);
    }
    out[key] = member;
  }
  for (const [key, rule] of Object.entries(spec)) {
    if (rule.required && !(key in out)) throw validationError(key, 'is required');
  }
  return out as BodyOf<S>;
}
