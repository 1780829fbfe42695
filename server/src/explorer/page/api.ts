/**
 * The explorer's requests, made with the SDK, and what it shows of each answer: status, the headers that
 * matter for caching and scopes, the time, and whether the HTTP cache answered a 304. The SDK reports every
 * response through its `response` event, errors included, so the answer is known however the call ends.
 */
import {
  bearer,
  type Client,
  createClient,
  Entity,
  type FollowOptions,
  type HalResource,
} from '@storefront-platform/sdk';

/** The last response of a call, as the SDK reported it. */
export interface Answer {
  method: string;
  url: string;
  status: number;
  /** Lower-case names; the credentials in them redacted by the SDK. */
  headers: Record<string, string>;
  /** From sending the request to its response headers, in ms. */
  duration: number;
  /** What was sent, for copying it as a command. */
  request: SentRequest;
}

/** A request as sent: its headers as the SDK reported them (credentials redacted), and its JSON body if any. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** How a call ended; `answer` is missing when no response came (a network failure, a bad template value). */
export type Outcome =
  | { kind: 'entity'; entity: Entity; answer?: Answer; revalidated: boolean }
  | { kind: 'empty'; answer?: Answer }
  | { kind: 'other'; value: unknown; answer?: Answer }
  | { kind: 'error'; error: unknown; answer?: Answer };

/** The requests of one signed-in session, through one client (and its HTTP cache: a revisit is often a 304). */
export class Api {
  readonly #client: Client;
  #answer: Answer | undefined;
  #sent: SentRequest | undefined;
  /** The JSON body of the call under way, which the SDK's events do not carry. */
  #body: unknown;
  /** The token, for a copied command that asks for it. */
  readonly accessToken: string;

  constructor(baseUrl: string, accessToken: string) {
    this.accessToken = accessToken;
    this.#client = createClient({
      baseUrl,
      auth: bearer(accessToken),
      // An explorer shows what the server answered, not what a retry later got.
      retry: false,
      on: {
        request: ({ method, url, headers }) => {
          this.#sent = { method, url, headers, ...(this.#body === undefined ? {} : { body: this.#body }) };
        },
        response: ({ method, url, status, headers, duration }) => {
          const request = this.#sent ?? { method, url, headers: {} };
          this.#answer = { method, url, status, headers, duration, request };
        },
      },
    });
  }

  /** An entity again from a document kept earlier and the URL it came from, without a request. */
  restore(document: HalResource, url: string): Entity {
    return this.#client.restore(document, url);
  }

  /**
   * GET of the resource at `url`, as its own `self` link: a page reloaded on a resource starts from there, not
   * from the root the SDK's navigation otherwise starts from.
   */
  open(url: string): Promise<Outcome> {
    return this.#call(() => this.#client.restore({ _links: { self: { href: url } } }, url).follow('self'));
  }

  /**
   * Follows the relation `rel` of `entity`: template variables and, for writes, the JSON body in `args`. A write
   * to the resource shown is guarded by the ETag it was shown with (see {@link writeGuard}).
   */
  follow(entity: Entity, rel: string, args?: Record<string, unknown>): Promise<Outcome> {
    return this.#call(() => entity.follow(rel, args, writeGuard(entity, rel, args)), bodyOf(entity, rel, args));
  }

  async #call(call: () => Promise<unknown>, body?: unknown): Promise<Outcome> {
    this.#answer = undefined;
    this.#sent = undefined;
    this.#body = body;
    const answered = () => (this.#answer ? { answer: this.#answer } : {});
    try {
      const value = await call();
      if (value instanceof Entity) {
        return { kind: 'entity', entity: value, revalidated: value.response?.revalidated === true, ...answered() };
      }
      if (value === undefined) return { kind: 'empty', ...answered() };
      if (value instanceof Response) {
        // Not JSON (an address typed in that leads to a page or a file): said, not shown.
        value.body?.cancel().catch(() => {});
        const note = 'not JSON: open the address itself to see it';
        return { kind: 'other', value: { 'content-type': value.headers.get('content-type'), note }, ...answered() };
      }
      return { kind: 'other', value, ...answered() };
    } catch (error) {
      return { kind: 'error', error, ...answered() };
    }
  }
}

/** The JSON body the SDK sends when following `rel` with `args`: the arguments its template does not take. */
function bodyOf(entity: Entity, rel: string, args: Record<string, unknown> = {}): unknown {
  try {
    const link = entity.link(rel);
    if (link.method === 'GET') return undefined;
    const { unused } = link.resolve(args);
    return Object.keys(unused).length ? unused : undefined;
  } catch {
    // The SDK says what is wrong with the arguments when it follows.
    return undefined;
  }
}

/**
 * `If-Match` for a write (PUT, DELETE) to the resource shown, with the ETag of the response it was shown from: a
 * change made since, by anyone and however soon after, is then a 412, never overwritten. None for a write elsewhere
 * (a create) or for a resource shown embedded, which came without an ETag (a template's body still carries its
 * `last_updated_on`).
 */
export function writeGuard(entity: Entity, rel: string, args: Record<string, unknown> = {}): FollowOptions {
  const etag = entity.response?.headers.get('etag');
  const link = entity.link(rel);
  if (!etag || link.method === 'GET' || link.method === 'POST') return {};
  const self = entity.links.get('self')?.[0];
  const target = link.resolve(args).url;
  const shown =
    target === entity.response?.url || (self !== undefined && !self.templated && self.resolve().url === target);
  return shown ? { ifMatch: etag } : {};
}
