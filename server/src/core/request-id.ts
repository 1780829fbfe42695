/**
 * `X-Request-Id`: the name every answer, its log line, its error body and the sandbox's journal give a request, so
 * that a client's error and the server's log can be joined. A client's own id is kept when it is sane, so that an
 * id made upstream (a proxy, a test) follows the request through; anything else gets one of ours.
 */

/**
 * What a client's id may be: 1 to 128 characters among letters, digits and `-_.:+=/@` (a UUID, a ULID, a
 * base64url or hex token, a `trace-id:span` pair). Nothing that could break a log line or a header (controls,
 * spaces, quotes, commas), nor an id long enough to bloat every line that repeats it.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9\-_.:+=/@]{1,128}$/;

/** Whether a client's `X-Request-Id` is kept as the request's id. */
export function isSaneRequestId(value: string): boolean {
  return SANE_REQUEST_ID.test(value);
}

/** The request's id: the client's `X-Request-Id` when sane, else a random UUID. */
export function requestIdOf(given: string | null): string {
  return given !== null && isSaneRequestId(given) ? given : crypto.randomUUID();
}
