import {
  type CacheEntry,
  type CacheStore,
  type Client,
  type ClientOptions,
  createClient,
  createHttpCache,
  createMemoryCacheStore,
  type HalResource,
  type HttpCacheOptions,
} from '@storefront-platform/sdk';

/** Options of {@link createStorefrontClient}: the SDK's, with the HTTP cache given by its options. */
export interface StorefrontClientOptions extends Omit<ClientOptions, 'cache'> {
  /**
   * The SDK's HTTP cache, by the options of `createHttpCache` (its `store` may be your own: IndexedDB, Redis), or
   * `false` for none. The bindings build the cache themselves so that they see which entries a write drops: those
   * are the queries `useAction` invalidates. Without a cache every write invalidates every query of the client.
   */
  cache?: HttpCacheOptions | false;
  /**
   * Stands for the token's owner in the query keys (`['storefront', key, url]`), as the owner does in the SDK's cache
   * keys: give each user's client its own when one `QueryClient` serves several. It must be the same on the server
   * and in the browser for a dehydrated state to be found. Default: `'default'`.
   */
  key?: string;
}

/** What a write dropped from the SDK's cache: the URLs of the entries, or `'all'` when the client has no cache. */
export type Invalidation = readonly string[] | 'all';

/** An SDK client that also tells the bindings what its writes invalidate. Made by {@link createStorefrontClient}. */
export interface StorefrontClient extends Client {
  /** The API root, as the SDK's cache keys write it. */
  readonly baseUrl: string;
  /** Distinguishes this client's queries from another's (another user) in one `QueryClient`: `options.key`. */
  readonly key: string;
  /**
   * Calls `listener` after each successful write with what the SDK's cache dropped, and with `'all'` after a 412;
   * returns the unsubscriber.
   */
  onInvalidate(listener: (dropped: Invalidation) => void): () => void;
}

/** Where a client made here takes the responses a dehydrated state brought (see `hydration.ts`). */
const hydrations = new WeakMap<StorefrontClient, (entry: CacheEntry) => void>();

/**
 * Stores a dehydrated entity in `client`'s HTTP cache as the response it was read from, so that a write drops it (and
 * the provider refetches its query) as it would a response the client read itself, and a read revalidates it with a
 * 304. Without an `ETag` (or a cache) nothing could revalidate it: it stays out.
 */
export function hydrateCache(client: StorefrontClient, url: string, etag: string | undefined, document: HalResource) {
  if (etag === undefined) return;
  const headers = { etag, 'content-type': 'application/hal+json' };
  hydrations.get(client)?.({ url, status: 200, headers, body: JSON.stringify(document), storedAt: Date.now() });
}

/**
 * An SDK client (`createClient`) whose HTTP cache reports what each write invalidates, for the React bindings. Give
 * it to `StorefrontProvider`, or let the provider make it from `options`.
 */
export function createStorefrontClient(options: StorefrontClientOptions): StorefrontClient {
  const listeners = new Set<(dropped: Invalidation) => void>();
  const notify = (dropped: Invalidation) => {
    for (const listener of listeners) listener(dropped);
  };
  const { cache: cacheOptions, key = 'default', ...rest } = options;
  let cache: ClientOptions['cache'] = false;
  let hydrate: ((entry: CacheEntry) => void) | undefined;
  if (cacheOptions !== false) {
    // The cache deletes what a write touched from its store: collecting the deletes made while an invalidation runs
    // reads the SDK's own decision (tags of self links and embedded resources) instead of restating it here. A
    // read stored meanwhile may evict an entry within that window: its query is refetched too, which costs a
    // request and shows nothing wrong.
    let collecting: string[][] = [];
    const inner: CacheStore = cacheOptions?.store ?? createMemoryCacheStore(cacheOptions);
    const store: CacheStore = {
      get: (key) => inner.get(key),
      set: (key, entry) => inner.set(key, entry),
      delete(key) {
        for (const batch of collecting) batch.push(key);
        return inner.delete(key);
      },
    };
    const http = createHttpCache({ ...cacheOptions, store });
    // Only the transport knows the owner it keys an origin's entries under (the token's, or anonymous for an origin
    // it sends no token to): hydrated responses wait for the cache's first call about their origin. A response the
    // cache holds already was read by this client, after the page's state was made: it stays.
    let waiting: CacheEntry[] = [];
    let adopted = Promise.resolve();
    const adopt = (owner: string, url: string) => {
      const origin = new URL(url).origin;
      const mine = waiting.filter((entry) => new URL(entry.url).origin === origin);
      if (mine.length > 0) {
        waiting = waiting.filter((entry) => !mine.includes(entry));
        adopted = adopted.then(async () => {
          for (const entry of mine) if (!(await http.get(owner, entry.url))) await http.put(owner, entry);
        });
      }
      return adopted;
    };
    hydrate = (entry) => waiting.push(entry);
    cache = {
      ...http,
      get: (owner, url) => adopt(owner, url).then(() => http.get(owner, url)),
      put: (owner, entry) => adopt(owner, entry.url).then(() => http.put(owner, entry)),
      async invalidate(owner, urls) {
        await Promise.all(urls.map((url) => adopt(owner, url)));
        const batch: string[] = [];
        collecting = [...collecting, batch];
        try {
          await http.invalidate(owner, urls);
        } finally {
          collecting = collecting.filter((other) => other !== batch);
        }
        // A key is the encoded owner, a space, then the URL (which holds no space).
        notify([...new Set([...urls, ...batch.map((key) => key.slice(key.indexOf(' ') + 1))])]);
      },
    };
  }
  const client = createClient({ ...rest, cache });
  // Without a cache nothing says what a write touched: every query of the client is refetched. A 412 too, with a
  // cache or not: another write changed the resource, and what that write touched (the lists that embed it, the
  // collections above it) only the server knows. Every stored answer is revalidated, so a refetch reads the change.
  client.on('response', ({ method, status }) => {
    if (method !== 'GET' && method !== 'HEAD' && ((!cache && status < 400) || status === 412)) notify('all');
  });
  const storefront: StorefrontClient = {
    ...client,
    baseUrl: new URL(options.baseUrl).href,
    key,
    onInvalidate(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  if (hydrate) hydrations.set(storefront, hydrate);
  return storefront;
}
