/**
 * One run of a contract case against one target: sends requests, and records each exchange in the form the
 * two targets are compared in: status, the headers of the wire contract, the body, with secrets the service
 * draws at random (tokens, codes, new preview keys) replaced by their order of appearance.
 */
import type { ClientCredentials } from '@storefront-platform/sdk';
import { basicAuthorization, encodeBase64 } from '@storefront-platform/sdk/internal';
import { DEMO, ORIGIN } from './fixture.js';
import type { Conformance } from './openapi-conformance.js';
import type { Target } from './target.js';

/** A JSON document as cases read it: loosely, member by member. */
// biome-ignore lint/suspicious/noExplicitAny: cases walk response documents whose shape they assert
export type Doc = Record<string, any>;

/** One recorded exchange. */
export interface Exchange {
  /** What the case meant to do. */
  label: string;
  /** Method and URL (relative to the origin). */
  request: string;
  status: number;
  /** Every response header but those of the transport (see {@link TRANSPORT_HEADERS}), by lower-case name. */
  headers: Record<string, string>;
  /** The body as text, or `base64:…` for a binary one. */
  body: string;
}

/**
 * Headers each shell sets its own way without changing what the response means: the connection, the framing
 * and the compression Express applies (gzip when the client accepts it; the fetch client decodes it).
 */
const TRANSPORT_HEADERS = new Set([
  'connection',
  'content-encoding',
  'content-length',
  'date',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * Express's compression adds `Accept-Encoding` to `Vary` of every compressible response, as it may gzip them;
 * MSW does not compress. The core's own `Vary` (every API response) is asserted by the cases.
 */
function withoutCompressionVary(value: string): string | undefined {
  const rest = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.toLowerCase() !== 'accept-encoding');
  return rest.length ? rest.join(', ') : undefined;
}

/** What a transcript records for the request's id, random on each target. */
const REQUEST_ID = '<request id>';

/**
 * The answer's `X-Request-Id`, which every answer carries, and which every JSON error body repeats as `request_id`
 * (the API's errors body and the token endpoint's RFC 6749 §5.2 one alike); an error naming the exchange when either
 * is missing or they differ.
 */
function checkedRequestId(label: string, response: Response, type: string, text: string): string {
  const id = response.headers.get('x-request-id');
  if (!id) throw new Error(`"${label}": the answer has no X-Request-Id`);
  // A HEAD's error has the headers of the GET's and no body.
  if (response.status >= 400 && type.startsWith('application/json') && text !== '') {
    const body = JSON.parse(text) as { request_id?: unknown };
    if (body.request_id !== id) {
      throw new Error(
        `"${label}": the error body's request_id ${String(body.request_id)} is not its X-Request-Id ${id}`,
      );
    }
  }
  return id;
}

/**
 * The gzip coding's entity tag (`"…-gzip"`, its own, RFC 9110 §8.8.3) as the identity coding's, which MSW sends: on a
 * gzipped answer, and on a 304 that echoes the tag the client holds.
 */
function identityEtag(value: string): string {
  return value.replace(/-gzip"$/, '"');
}

/** How a case describes a request. */
export interface SendInit {
  method?: string;
  /** Sent as `Authorization: Bearer …`. */
  token?: string;
  /** HTTP Basic client credentials (token endpoint): the demo app's (`true`) or the given ones. */
  basic?: true | ClientCredentials;
  headers?: Record<string, string>;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent form-encoded. */
  form?: Record<string, string>;
  body?: BodyInit;
}

/** What a case reads of a response. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  bytes: Uint8Array;
  json(): Doc;
}

const BINARY = /^(image|font)\//;

export class Session {
  readonly exchanges: Exchange[] = [];
  readonly #secrets = new Map<string, string>();

  /** `conformance`: the OpenAPI document every response must match (a case fails at the first that does not). */
  constructor(
    readonly target: Target,
    readonly conformance?: Conformance,
  ) {}

  /** Sends a request to `url` (absolute under the origin, or a path) and records the exchange. */
  async send(label: string, url: string, init: SendInit = {}): Promise<Reply> {
    const absolute = url.startsWith('http') ? url : ORIGIN + url;
    const headers = new Headers(init.headers);
    if (init.token !== undefined) headers.set('authorization', `Bearer ${init.token}`);
    if (init.basic) headers.set('authorization', basicAuthorization(init.basic === true ? DEMO : init.basic));
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    } else if (init.form !== undefined) {
      body = new URLSearchParams(init.form);
    }
    const method = init.method ?? (body === undefined ? 'GET' : 'POST');
    const response = await this.target.fetch(absolute, { method, headers, body, redirect: 'manual' });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const problems = this.conformance?.problems({
      method,
      url: absolute,
      status: response.status,
      headers: response.headers,
      text,
    });
    if (problems?.length) {
      throw new Error(
        `"${label}" (${method} ${absolute}) disagrees with the OpenAPI document:\n${problems.join('\n')}`,
      );
    }
    const type = response.headers.get('content-type') ?? '';
    const requestId = checkedRequestId(label, response, type, text);
    this.#learnSecrets(type, text, response.status, response.headers.get('location'));
    const etag = response.headers.get('etag') && identityEtag(response.headers.get('etag')!);
    // The entity tag of a representation that carries a secret is as random as the secret.
    if (etag && this.#mask(text) !== text) this.#learn(etag);
    const recorded: Record<string, string> = {};
    for (const [name, value] of [...response.headers].sort(([a], [b]) => a.localeCompare(b))) {
      if (TRANSPORT_HEADERS.has(name)) continue;
      if (name === 'x-request-id') {
        recorded[name] = REQUEST_ID;
        continue;
      }
      const kept = name === 'vary' ? withoutCompressionVary(value) : name === 'etag' ? identityEtag(value) : value;
      if (kept !== undefined) recorded[name] = this.#mask(kept);
    }
    this.exchanges.push({
      label,
      request: this.#mask(`${method} ${absolute.slice(ORIGIN.length)}`),
      status: response.status,
      headers: recorded,
      body: BINARY.test(type) ? `base64:${encodeBase64(bytes)}` : this.#mask(text).replaceAll(requestId, REQUEST_ID),
    });
    return { status: response.status, headers: response.headers, text, bytes, json: () => JSON.parse(text) as Doc };
  }

  /** An access token of the client credentials grant (recorded like any exchange). */
  async token(scope: 'admin' | 'public' = 'admin'): Promise<string> {
    const reply = await this.send(`client credentials token (${scope})`, '/oauth/token', {
      basic: true,
      form: { grant_type: 'client_credentials', scope },
    });
    if (reply.status !== 200) throw new Error(`token request failed: ${reply.status} ${reply.text}`);
    return reply.json().access_token as string;
  }

  /**
   * Access tokens, authorization codes, the preview key of a theme the case creates, event ids and webhook
   * secrets: random on each target, so recorded by their order of appearance. (Seeded themes keep the data set's keys, compared as they are.)
   */
  #learnSecrets(type: string, text: string, status: number, location: string | null): void {
    const found: string[] = [];
    if (type.startsWith('application/json') && text.includes('access_token')) {
      const token = (JSON.parse(text) as Doc).access_token;
      if (typeof token === 'string') found.push(token);
    }
    if (status === 201 && type.startsWith('application/json')) {
      for (const [, key] of text.matchAll(/\/preview\/([\w-]+)\//g)) found.push(key!);
    }
    if (type.startsWith('application/json')) {
      // Event ids and webhook secrets, random alike.
      for (const [secret] of text.matchAll(/\bevt_[0-9a-z]{24}\b|\bwhsec_[A-Za-z0-9+/]+=*/g)) found.push(secret);
    }
    if (location) {
      const url = new URL(location);
      for (const params of [url.searchParams, new URLSearchParams(url.hash.slice(1))]) {
        for (const name of ['code', 'access_token']) {
          const value = params.get(name);
          if (value) found.push(value);
        }
      }
    }
    for (const secret of found) this.#learn(secret);
  }

  #learn(secret: string): void {
    if (!this.#secrets.has(secret)) this.#secrets.set(secret, `<secret ${this.#secrets.size + 1}>`);
  }

  #mask(text: string): string {
    let out = text;
    for (const [secret, mask] of this.#secrets) out = out.replaceAll(secret, mask);
    return out;
  }
}
