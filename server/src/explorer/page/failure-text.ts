/**
 * What a failed call says, once: one sentence, and a 422's field errors as a list. The SDK's message of a 422
 * repeats its field errors after the server's sentence, which itself names the field; shown as they were, the
 * page said the same thing two or three times (issue #23). The field errors come from the body, the sentence from
 * the server's `message` when it sent one.
 */
import { HttpError, PreconditionFailedError, ValidationError } from '@storefront-platform/sdk';

/** A field the server refused, with its reasons. */
export interface FieldProblem {
  field: string;
  messages: readonly string[];
}

/** A failure in words. */
export interface FailureText {
  sentence: string;
  fields: FieldProblem[];
}

function serverMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { message, error_description: description } = body as Record<string, unknown>;
  const text = typeof message === 'string' ? message : typeof description === 'string' ? description : undefined;
  return text?.trim() || undefined;
}

/** What to do after a 412: the resource changed since the page showed it. */
export const RELOAD_HINT = 'It changed since it was shown: reload it, then make the change again.';

export function failureText(error: unknown): FailureText {
  if (error instanceof ValidationError && error.errors.length) {
    const one = error.errors.length === 1;
    return {
      sentence: `The server did not accept ${one ? 'a field' : `${error.errors.length} fields`}: fix ${one ? 'it' : 'them'} and send again.`,
      fields: error.errors.map(({ field, messages }) => ({ field, messages })),
    };
  }
  // The server's 412 says which precondition failed, not what to do (its 422 on `updated_on` does).
  if (error instanceof PreconditionFailedError) {
    const sentence = serverMessage(error.body) ?? error.message;
    return { sentence: `${sentence.replace(/\.?$/, '.')} ${RELOAD_HINT}`, fields: [] };
  }
  if (error instanceof HttpError) return { sentence: serverMessage(error.body) ?? error.message, fields: [] };
  return { sentence: error instanceof Error ? error.message : String(error), fields: [] };
}
