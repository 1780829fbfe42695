/**
 * Reading a JSON request body against a JSON Schema given as data (the wire contract's, see `api/request-body.ts`):
 * the media type (415), the size (413), the syntax (400), then the members (422 on the member: unknown, missing,
 * of the wrong type or out of the schema's bounds).
 */
import { IDENTITY_ONLY, unsupportedEncoding } from '../core/body-encoding.js';
import { BodyTooLargeError } from '../core/body-limit.js';
import type { CoreRequest } from '../core/types.js';
import { badRequest, HttpError, validationError } from './http-error.js';
import { type ResolveRef, type Schema, schemaProblem } from './json-schema.js';

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
 * Reads a JSON object body and validates it against `schema`. The result is a copy on an object without a
 * prototype, so that keys such as `__proto__` (refused as unknown by a closed schema anyway) can never reach one.
 */
export async function readJson(
  request: CoreRequest,
  schema: Schema,
  resolve: ResolveRef,
  limit: number,
): Promise<Record<string, unknown>> {
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
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('The body must be a JSON object');
  }
  const problem = schemaProblem(value, schema, resolve);
  if (problem) {
    // A 422 names a member of the body; where inside it (an item of a list) leads the message.
    const [member, ...inside] = problem.path;
    const where = inside.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('');
    throw validationError(String(member ?? 'body'), where ? `${where}: ${problem.message}` : problem.message);
  }
  return Object.assign(Object.create(null) as Record<string, unknown>, value);
}
