import { BodyAbortedError } from '../core/body-aborted.js';
import { IDENTITY_ONLY, unsupportedEncoding } from '../core/body-encoding.js';
import { BodyTooLargeError } from '../core/body-limit.js';
import type { CoreRequest } from '../core/types.js';
import { OAuthError, quoted } from './errors.js';

/** The most bytes of form data an OAuth endpoint accepts; real requests are a few hundred bytes. */
const MAX_FORM_BYTES = 16 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * OAuth parameters, one value per name. RFC 6749 §3.1: parameters sent without a value are treated as
 * omitted, and no parameter may be included more than once.
 */
export function singleParams(params: URLSearchParams): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (seen.has(name))
      throw new OAuthError('invalid_request', `The parameter ${quoted(name)} is included more than once`);
    seen.add(name);
    if (value !== '') out.set(name, value);
  }
  return out;
}

/** Whether a `Content-Type` value names `application/x-www-form-urlencoded` (parameters such as charset allowed). */
function isFormContentType(value: string | null): boolean {
  return (value ?? '').split(';', 1)[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** Reads a form-encoded request body into single-valued parameters; anything else is an `invalid_request`. */
export async function readFormParams(request: CoreRequest): Promise<Map<string, string>> {
  return singleParams(await readForm(request));
}

/** Reads a form-encoded request body as sent, repeated names included. */
export async function readForm(request: CoreRequest): Promise<URLSearchParams> {
  if (!isFormContentType(request.headers.get('content-type'))) {
    throw new OAuthError('invalid_request', 'The request body must be application/x-www-form-urlencoded');
  }
  const encoded = unsupportedEncoding(request.headers);
  if (encoded) throw new OAuthError('invalid_request', encoded, 415, IDENTITY_ONLY);
  const tooLarge = () => new OAuthError('invalid_request', `The request body exceeds ${MAX_FORM_BYTES} bytes`, 413);
  let bytes: Uint8Array;
  try {
    bytes = await request.body();
  } catch (error) {
    // The shell's own cap, far above ours: the same refusal.
    if (error instanceof BodyTooLargeError) throw tooLarge();
    // Anyone can cause it, and nobody reads the answer: bad input, not a failure of the service to log.
    if (error instanceof BodyAbortedError) throw new OAuthError('invalid_request', 'The request body was cut short');
    throw error;
  }
  if (bytes.byteLength > MAX_FORM_BYTES) throw tooLarge();
  try {
    return new URLSearchParams(utf8.decode(bytes));
  } catch {
    throw new OAuthError('invalid_request', 'The request body is not valid UTF-8');
  }
}

/** A parameter the request cannot do without. */
export function requireParam(params: Map<string, string>, name: string): string {
  const value = params.get(name);
  if (value === undefined) throw new OAuthError('invalid_request', `The parameter "${name}" is required`);
  return value;
}
