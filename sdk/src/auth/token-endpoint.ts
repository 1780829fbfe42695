/**
 * The client of `POST {auth_url}/oauth/token` (spec §5.1, RFC 6749 §3.2): form-encoded grants, HTTP Basic client
 * authentication, the token response parsed into a {@link TokenInfo}, failures turned into typed errors that
 * carry no secret. Sent by ky, once: a grant is not idempotent (an exchanged token is revoked).
 */
import ky, { isTimeoutError } from 'ky';
import { createHttpError } from '../errors/create-http-error.js';
import { HttpError } from '../errors/http-error.js';
import { InvalidResponseError } from '../errors/invalid-response-error.js';
import { NetworkError } from '../errors/network-error.js';
import { REDACTED, redactUrl, SECRET_PARAMS } from '../errors/redact.js';
import { ResponseTooLargeError } from '../errors/response-too-large-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { limitBody } from '../http/body-limit.js';
import { globalFetch } from '../http/client-ky.js';
import { headerRecord, parseBody } from '../http/media-type.js';
import { readText, withText } from '../http/response-body.js';
import { abortable } from './abortable.js';
import { basicAuthorization, type ClientCredentials } from './client-authentication.js';
import type { TokenInfo } from './types.js';

/**
 * The most bytes read of a token endpoint's answer: a token response or an OAuth error is a few hundred bytes,
 * and one with an ID token a few KiB; past this it is a `ResponseTooLargeError`.
 */
const TOKEN_RESPONSE_LIMIT = 1024 * 1024;

/** What every token-requesting helper accepts besides its grant. */
export interface TokenEndpointOptions {
  /** The authorization service, `{auth_url}` of the spec (e.g. `http://localhost:4000`); the token endpoint is `/oauth/token` below it. */
  authUrl: string;
  /**
   * The `fetch` of the token requests. Default: the `fetch` of the client whose request needs a token, else the
   * global one.
   */
  fetch?: typeof fetch;
  /** Epoch ms now; injectable so that tests can move time. Defaults to `Date.now`. */
  now?: () => number;
  /**
   * Limit of one token request in ms, response body included; 0 disables it. Default 30 000. Requests waiting
   * for a token wait for this one request, so a stalled token endpoint must not hang them all.
   */
  timeout?: number;
}

/**
 * Only the endpoint options of a strategy's options, so that nothing else travels further; `fallback` is the
 * `fetch` to use when the options have none (the client's).
 */
export function endpoint(
  { authUrl, fetch, now, timeout }: TokenEndpointOptions,
  fallback?: typeof globalThis.fetch,
): TokenEndpointOptions {
  return { authUrl, fetch: fetch ?? fallback, now, timeout };
}

/** One call to the token endpoint. */
export interface TokenRequest extends TokenEndpointOptions {
  /** Grant parameters, `grant_type` included. */
  params: Record<string, string>;
  /** Authenticates the client with HTTP Basic; absent for grants that prove themselves (the JWT bearer grant). */
  client?: ClientCredentials;
  signal?: AbortSignal;
}

/** `{authUrl}/oauth/token`, whether or not `authUrl` ends with a slash. */
export function tokenUrl(authUrl: string): string {
  return `${authUrl.replace(/\/+$/, '')}/oauth/token`;
}

/** A copy of `value` in which every string has each secret replaced by the redaction marker. */
function scrub(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return secrets.reduce((text, secret) => text.replaceAll(secret, REDACTED), value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrub(item, secrets)]));
  }
  return value;
}

/** Granted scopes: the spec's comma-separated `scopes`, else RFC 6749's space-separated `scope`. */
function grantedScopes(body: Record<string, unknown>): string[] {
  if (typeof body.scopes === 'string') return body.scopes.split(',').filter(Boolean);
  if (typeof body.scope === 'string') return body.scope.split(' ').filter(Boolean);
  return [];
}

/** The token of a successful response, or `undefined` when the body is not a bearer token response. */
export function tokenInfoFrom(body: unknown, now: number): TokenInfo | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  const { access_token: accessToken, token_type: tokenType, expires_in: expiresIn } = fields;
  if (typeof accessToken !== 'string' || accessToken === '') return undefined;
  if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer') return undefined;
  // The implicit grant's fragment carries numbers as text.
  const lifetime = typeof expiresIn === 'string' && expiresIn !== '' ? Number(expiresIn) : expiresIn;
  const info: TokenInfo = { accessToken, tokenType: 'Bearer', scopes: grantedScopes(fields) };
  if (lifetime === undefined) return info;
  // Number.isFinite is false for anything but a finite number.
  if (!Number.isFinite(lifetime) || (lifetime as number) < 0) return undefined;
  info.expiresAt = now + (lifetime as number) * 1000;
  return info;
}

/**
 * Sends one grant to the token endpoint. Resolves with the new token; rejects with an `OAuthError` (the
 * server's `error` and `error_description`) when the server refuses with a 4xx, the typed error of the status
 * otherwise (a `ServerError` on a 5xx), an {@link InvalidResponseError} when a 2xx is not a bearer token, a
 * {@link NetworkError} without response, a {@link TimeoutError} past `timeout`, a {@link ResponseTooLargeError}
 * for an answer over 1 MiB. No secret sent (the client secret, and every grant parameter of `SECRET_PARAMS`: password,
 * assertion, code, refresh token…) nor the token received appears in any of them.
 */
export async function requestToken(request: TokenRequest): Promise<TokenInfo> {
  const url = tokenUrl(request.authUrl);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (request.client) headers.authorization = basicAuthorization(request.client);
  const secrets = Object.entries(request.params).flatMap(([name, value]) =>
    value && SECRET_PARAMS.has(name) ? [value] : [],
  );
  if (request.client) secrets.push(request.client.clientSecret);

  const timeout = request.timeout ?? 30_000;
  const send = request.fetch ?? globalFetch;
  let response: Response;
  try {
    // abortable: a fetch deaf to its signal still cannot hold the caller past an abort (ky's timeout bounds the rest).
    response = await abortable(
      ky.post(url, {
        headers,
        body: new URLSearchParams(request.params).toString(),
        ...(request.signal && { signal: request.signal }),
        timeout: timeout > 0 ? timeout : false,
        retry: 0,
        throwHttpErrors: false,
        // A grant carries a secret (password, assertion, code, client secret): a redirect would send it to another
        // address, which fetch would do for a 307 or 308 (it drops only `Authorization`, not the body).
        redirect: 'manual',
        // The body is read within the attempt, where ky's timeout covers it.
        fetch: async (input, init) =>
          withText(limitBody(await send(input, init), TOKEN_RESPONSE_LIMIT, { method: 'POST', url }), false),
      }),
      request.signal,
    );
  } catch (cause) {
    if (request.signal?.aborted) throw request.signal.reason;
    if (isTimeoutError(cause)) throw new TimeoutError({ method: 'POST', url, timeout, cause });
    if (cause instanceof ResponseTooLargeError) throw cause;
    throw new NetworkError({ method: 'POST', url, cause });
  }
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    // Where it leads, credentials redacted, when it says.
    const where = response.headers.get('location');
    throw new HttpError({
      method: 'POST',
      url,
      status: response.status,
      headers: headerRecord(response.headers),
      statusText: `a redirect${where ? ` to ${redactUrl(where)}` : ''}, not followed: grants go to authUrl's token endpoint only`,
    });
  }
  const text = readText(response) ?? '';
  const parsed = parseBody(text, response.headers.get('content-type'));
  const token = response.ok ? tokenInfoFrom(parsed, (request.now ?? Date.now)()) : undefined;
  if (token) return token;

  const leaked = (parsed as { access_token?: unknown } | null | undefined)?.access_token;
  if (typeof leaked === 'string' && leaked !== '') secrets.push(leaked);
  const init = {
    method: 'POST',
    url,
    status: response.status,
    statusText: response.statusText,
    headers: headerRecord(response.headers),
    body: scrub(parsed, secrets),
  };
  throw response.ok ? new InvalidResponseError(init) : createHttpError(init);
}
