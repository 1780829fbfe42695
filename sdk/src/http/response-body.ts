/**
 * Bodies read inside their attempt. ky's timeout stops at the response headers; reading the body in the `fetch` ky
 * calls puts it under the same timeout, so that a body that stalls fails (and is retried) like a server that does.
 */

import { type BodyLimit, type LimitedRequest, limitBody, withBody } from './body-limit.js';

/** The text read of each response handed to ky, by that response. */
const bodies = new WeakMap<Response, string>();

/** The text read of `response` within its attempt, when it was. */
export function readText(response: Response): string | undefined {
  return bodies.get(response);
}

/**
 * `response` with its body read as text. When nobody else will read it (no hook of the user's sees responses),
 * the consumed response itself is handed on, at no cost; otherwise a copy with the same text, status, headers and
 * URL, so that hooks can read it too.
 */
export async function withText(response: Response, copy: boolean): Promise<Response> {
  const text = await response.text();
  let kept = response;
  if (copy) {
    // No body at all rather than an empty one: a 204 or a 304 may not have one.
    kept = withBody(response, text === '' ? null : text);
  }
  bodies.set(kept, text);
  return kept;
}

/**
 * The text of `response`: read within its attempt, else (a response a hook of the user's made) read now, no more
 * than `limit` bytes of it.
 */
export async function bodyText(response: Response, limit: BodyLimit, request: LimitedRequest): Promise<string> {
  return readText(response) ?? (await limitBody(response, limit, request).text());
}
