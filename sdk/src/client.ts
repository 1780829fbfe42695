import type { AuthStrategy } from './auth/types.js';
import type { HttpCache } from './cache/types.js';
import { InvalidResponseError } from './errors/invalid-response-error.js';
import { type ClientEventHandlers, type ClientEventListener, type ClientEventName, Emitter } from './http/events.js';
import { headerRecord } from './http/media-type.js';
import { type RetryOptions, retryPolicy } from './http/retry.js';
import { Transport } from './http/transport.js';
import { Entity } from './resource/entity.js';
import { Navigator } from './resource/navigator.js';
import type { Root } from './resource/representations.js';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** The API root (`{base_url}`, e.g. `https://api.example.com/v1`): the only URL the client is given. */
  baseUrl: string | URL;
  /** The `fetch` to use (tests, proxies, instrumentation). Default: the global `fetch`, looked up at each call. */
  fetch?: typeof fetch;
  /** How requests are authenticated; without it no `Authorization` header is sent. */
  auth?: AuthStrategy;
  /** HTTP cache for conditional GETs; without it every GET goes to the server in full. */
  cache?: HttpCache;
  /** Event listeners, as a shorthand for `client.on(...)`. */
  on?: ClientEventHandlers;
  /** `User-Agent` to send (browsers may ignore it). Default: the platform's. */
  userAgent?: string;
  /**
   * Limit per attempt in ms, covering the response and a JSON body; 0 disables it. Default 30 000. Token requests
   * are bounded by the `timeout` of the `auth` strategy (same default).
   */
  timeout?: number;
  /** Retries of idempotent requests on 5xx, network errors and timeouts. `false` disables them. Default: 2 retries. */
  retry?: RetryOptions | number | false;
}

/** A client of one API root. */
export interface Client {
  /** The root resource at `baseUrl`: where every navigation starts. */
  root(options?: { signal?: AbortSignal }): Promise<Root>;
  /** Subscribes to an event; returns the function that unsubscribes. */
  on<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): () => void;
  /** Unsubscribes `listener` from the event, as the function returned by `on` does; unknown listeners are ignored. */
  off<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): void;
}

/** Creates a client for the API at `options.baseUrl`. */
export function createClient(options: ClientOptions): Client {
  const emitter = new Emitter();
  for (const [name, listener] of Object.entries(options.on ?? {})) {
    if (listener) emitter.on(name as ClientEventName, listener as ClientEventListener<ClientEventName>);
  }
  const navigator = new Navigator(
    new Transport({
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      emitter,
      retry: retryPolicy(options.retry),
      timeout: options.timeout ?? 30_000,
      auth: options.auth,
      cache: options.cache,
      userAgent: options.userAgent,
    }),
  );
  const baseUrl = new URL(options.baseUrl).href;

  return {
    async root({ signal } = {}) {
      const reply = await navigator.send({ method: 'GET', url: baseUrl, signal });
      const root = navigator.read(reply);
      if (!(root instanceof Entity)) {
        // Nobody will read a non-JSON root: release its connection.
        if (root instanceof Response) root.body?.cancel().catch(() => {});
        throw new InvalidResponseError({
          method: 'GET',
          url: reply.url,
          status: reply.status,
          headers: headerRecord(reply.headers),
          body: root instanceof Response ? undefined : root,
          statusText: 'the API root is not a HAL resource',
        });
      }
      return root as unknown as Root;
    },
    on: (name, listener) => emitter.on(name, listener),
    off: (name, listener) => emitter.off(name, listener),
  };
}
