/**
 * What the client reports while it works, enough to log every request. URLs and headers in events are
 * always redacted (no tokens, no secrets).
 */
export interface ClientEvents {
  /** An attempt is about to be sent. `attempt` counts from 1 (retries and the retry after a refresh add one). */
  request: { method: string; url: string; headers: Record<string, string>; attempt: number };
  /** An attempt got a response (a 304 is reported as such here, before it is answered from the cache). */
  response: {
    method: string;
    url: string;
    status: number;
    headers: Record<string, string>;
    attempt: number;
    /** Time from sending to the response headers, in ms. */
    duration: number;
    /** The answer's `X-Request-Id`: the id the server's log and an error's `requestId` give this attempt. */
    requestId?: string;
  };
  /** A stored copy exists for a GET; the request is sent conditionally with its validators. */
  'cache:hit': { url: string; etag?: string; lastModified?: string };
  /** The server answered 304: the caller gets the stored body, marked as revalidated. */
  'cache:revalidated': { url: string };
  /** A 200 GET response with validators was stored. */
  'cache:stored': { url: string };
  /** An unsafe request succeeded; the cache was told to drop these URLs (and what is above them). */
  'cache:invalidated': { urls: string[] };
  /**
   * The cache's store failed (Redis down, a quota exceeded): the request went on without it, in full if it was a
   * read. Nothing stale is served: every stored copy is revalidated before use.
   */
  'cache:error': { error: unknown };
  /** After a 401, the auth strategy produced new credentials and the request is sent again once. */
  'token:refreshed': { method: string; url: string };
  /**
   * A failed attempt of an idempotent request will be retried after `delay` ms: what the server asked for, else the
   * backoff (with ky's `retry.jitter`, ky waits a random part of it). `error` is the typed error of that attempt.
   */
  retry: { method: string; url: string; attempt: number; delay: number; error: Error };
}

/** Name of a client event. */
export type ClientEventName = keyof ClientEvents;

/** A listener of one event. */
export type ClientEventListener<E extends ClientEventName> = (event: ClientEvents[E]) => void;

/** Listeners given at creation, by event name. */
export type ClientEventHandlers = { [E in ClientEventName]?: ClientEventListener<E> };

/** A tiny typed emitter: listeners cannot break a request (a throwing listener is reported asynchronously). */
export class Emitter {
  readonly #listeners = new Map<ClientEventName, Set<(event: never) => void>>();

  /** Subscribes `listener` to `name`; returns the function that unsubscribes it. */
  on<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): () => void {
    const set = this.#listeners.get(name) ?? new Set();
    this.#listeners.set(name, set);
    set.add(listener);
    return () => this.off(name, listener);
  }

  off<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): void {
    this.#listeners.get(name)?.delete(listener);
  }

  /** True when someone listens to `name`, so that callers skip building events nobody reads. */
  wants(name: ClientEventName): boolean {
    return !!this.#listeners.get(name)?.size;
  }

  emit<E extends ClientEventName>(name: E, event: ClientEvents[E]): void {
    const set = this.#listeners.get(name);
    if (!set) return;
    for (const listener of set) {
      try {
        (listener as ClientEventListener<E>)(event);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
