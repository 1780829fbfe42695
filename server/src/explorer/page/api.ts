/**
 * The explorer's requests, made with the SDK, and what it shows of each answer: status, the headers that
 * matter for caching and scopes, the time, and whether the HTTP cache answered a 304. The SDK reports every
 * response through its `response` event, errors included, so the answer is known however the call ends.
 */
import { bearer, type Client, createClient, createHttpCache, Entity } from 'storefront-sdk';

/** The last response of a call, as the SDK reported it. */
export interface Answer {
  method: string;
  url: string;
  status: number;
  /** Lower-case names; the credentials in them redacted by the SDK. */
  headers: Record<string, string>;
  /** From sending the request to its response headers, in ms. */
  duration: number;
}

/** How a call ended; `answer` is missing when no response came (a network failure, a bad template value). */
export type Outcome =
  | { kind: 'entity'; entity: Entity; answer?: Answer; revalidated: boolean }
  | { kind: 'empty'; answer?: Answer }
  | { kind: 'other'; value: unknown; answer?: Answer }
  | { kind: 'error'; error: unknown; answer?: Answer };

/** The requests of one signed-in session. */
export class Api {
  readonly #auth;
  /** One cache for every client of the session: revisiting a resource is a conditional request, often a 304. */
  readonly #cache = createHttpCache();
  #answer: Answer | undefined;

  constructor(accessToken: string) {
    this.#auth = bearer(accessToken);
  }

  /**
   * A client whose "root" is `url`: the SDK reaches resources by following links from the root, and a page
   * reloaded on a resource has to start from that resource instead.
   */
  #client(url: string): Client {
    return createClient({
      baseUrl: url,
      auth: this.#auth,
      cache: this.#cache,
      // An explorer shows what the server answered, not what a retry later got.
      retry: false,
      on: {
        response: ({ method, url, status, headers, duration }) => {
          this.#answer = { method, url, status, headers, duration };
        },
      },
    });
  }

  /** GET of the resource at `url`. */
  open(url: string): Promise<Outcome> {
    return this.#call(() => this.#client(url).root());
  }

  /** Follows the relation `rel` of `entity`: template variables and, for writes, the JSON body in `args`. */
  follow(entity: Entity, rel: string, args?: Record<string, unknown>): Promise<Outcome> {
    return this.#call(() => entity.follow(rel, args));
  }

  async #call(call: () => Promise<unknown>): Promise<Outcome> {
    this.#answer = undefined;
    const answered = () => (this.#answer ? { answer: this.#answer } : {});
    try {
      const value = await call();
      if (value instanceof Entity) {
        return { kind: 'entity', entity: value, revalidated: value.response?.revalidated === true, ...answered() };
      }
      if (value === undefined) return { kind: 'empty', ...answered() };
      return { kind: 'other', value, ...answered() };
    } catch (error) {
      return { kind: 'error', error, ...answered() };
    }
  }
}
