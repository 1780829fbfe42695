/**
 * A request as a curl command to paste into a shell: the method, the URL, the headers that decide the answer and
 * the JSON body. The token is left out unless asked for: the command then reads it from `$STOREFRONT_TOKEN`, so
 * that a command pasted into a chat or a ticket carries no credential.
 */
import type { SentRequest } from './api.js';

/** The variable a masked command reads the token from. */
export const TOKEN_VARIABLE = 'STOREFRONT_TOKEN';

/**
 * Headers not copied: the credentials (written anew below), the HTTP cache's own validators (the copy asks for
 * the resource, not for a 304 against the page's cache), the `Idempotency-Key` the page's client gave its POST
 * (the same key again within 24 hours gets the first answer replayed and writes nothing: a copy run later, after a
 * delete say, must make a request of its own), and what curl sets itself.
 */
const LEFT_OUT = new Set([
  'authorization',
  'if-none-match',
  'if-modified-since',
  'idempotency-key',
  'user-agent',
  'accept-encoding',
  'content-length',
]);

/** `text` in single quotes for a POSIX shell: nothing inside is expanded. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The curl command of `request`; with `token`, the command carries it, else it reads `$STOREFRONT_TOKEN`. */
export function curlCommand(request: SentRequest, token?: string): string {
  const parts = ['curl', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(shellQuote(request.url));
  parts.push(
    '-H',
    token === undefined
      ? `"Authorization: Bearer \${${TOKEN_VARIABLE}}"`
      : shellQuote(`Authorization: Bearer ${token}`),
  );
  const names = Object.keys(request.headers)
    .filter((name) => !LEFT_OUT.has(name.toLowerCase()))
    .sort();
  for (const name of names) parts.push('-H', shellQuote(`${name}: ${request.headers[name]}`));
  if (request.body !== undefined) {
    if (!names.some((name) => name.toLowerCase() === 'content-type')) {
      parts.push('-H', shellQuote('content-type: application/json'));
    }
    parts.push('--data-raw', shellQuote(JSON.stringify(request.body)));
  }
  return parts.join(' ');
}
