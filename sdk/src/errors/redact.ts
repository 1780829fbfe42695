/**
 * Secrets never reach an error message, an event or a log line: query and fragment parameters that carry
 * credentials and the headers that do are replaced by a marker before anything keeps them.
 */

/** What replaces a secret. */
export const REDACTED = '[REDACTED]';

/** Query/fragment/form parameters that carry credentials (OAuth 2.0 requests and the JSONP `access_token`). */
export const SECRET_PARAMS: ReadonlySet<string> = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'client_assertion',
  'assertion',
  'code',
  'code_verifier',
  'password',
]);

/** Headers that carry credentials. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);

/** The name of a `name=value` pair, decoded and lower-cased: `ACCESS_TOKEN` carries a token as well. */
function paramName(pair: string): string {
  const raw = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * A form-encoded string (`a=1&b=2`, as in a query, a fragment or a token request body) with the values of
 * secret parameters replaced, whatever the case of their names; every other pair is kept byte for byte. `;`
 * separates pairs too (the HTML 4 form some servers and proxies still split on, so `?callback=cb;access_token=…`
 * carries a token to them).
 */
export function redactForm(form: string): string {
  return form
    .split(/([&;])/)
    .map((pair, i) =>
      i % 2 === 0 && SECRET_PARAMS.has(paramName(pair)) ? `${pair.split('=', 1)[0]}=${REDACTED}` : pair,
    )
    .join('');
}

/** The scheme and userinfo of a URL that has one (`https://user:pass@`); a token is often passed as the user name alone. */
export const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i;

/** `url` with secret query and fragment parameters replaced, and its whole userinfo. */
export function redactUrl(url: string | URL): string {
  // The query runs to the fragment, the fragment to the end: each is a form of its own.
  return String(url)
    .replace(USERINFO, `$1${REDACTED}@`)
    .replace(/[?#][^#]*/g, (part) => part[0] + redactForm(part.slice(1)));
}

/** A plain record of `headers` (lower-case names) with credential-bearing values replaced. */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const entries = headers instanceof Headers ? [...headers] : Object.entries(headers);
  const record: Record<string, string> = {};
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    record[key] = SECRET_HEADERS.has(key) ? REDACTED : value;
  }
  return record;
}
