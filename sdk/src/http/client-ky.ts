/**
 * The ky instance of a client: the user's instance (or ky itself) extended with the client's retry policy, timeout
 * and error statuses, the user's hooks kept. What changes per request (headers, credentials, the attempt's `fetch`,
 * the retry decision) travels in each call's options, where ky gives it to that request alone.
 */
import type * as Ky from 'ky';
import ky, { type Options } from 'ky';
import { type RetryOption, type RetryPolicy, retryPolicy } from './retry.js';

/** ky's hooks (`beforeRequest`, `afterResponse`, `beforeRetry`, `beforeError`), as `ClientOptions.hooks` takes them. */
export type KyHooks = Ky.Hooks;

/** An instance of ky, made with `ky.create()` or `.extend()`, as `ClientOptions.ky` takes it. */
export type KyInstance = Ky.KyInstance;

/**
 * ky's retry options (`limit`, `methods`, `statusCodes`, `afterStatusCodes`, `maxRetryAfter`, `backoffLimit`,
 * `delay`, `jitter`, `retryOnTimeout`, `shouldRetry`), as `ClientOptions.retry` takes them.
 */
export type RetryOptions = Ky.RetryOptions;

/** The options of `createClient` that shape its ky instance; see `ClientOptions`. */
export interface KyClientOptions {
  ky?: KyInstance;
  fetch?: typeof fetch;
  timeout?: number | false;
  retry?: RetryOption;
  hooks?: KyHooks;
}

/** A client's ky instance and what the transport must know of it. */
export interface ClientKy {
  ky: KyInstance;
  /** The `fetch` the instance ends in, also lent to auth strategies that have none of their own. */
  fetch: typeof fetch;
  retry: RetryPolicy;
  /** Limit per attempt in ms, or `false`. */
  timeout: number | false;
  /** Whether a hook of the user's may read a response body, which the client then hands on as a copy. */
  hooksReadBodies: boolean;
}

/** The client's limit per attempt (ky's is 10 s). */
const DEFAULT_TIMEOUT = 30_000;

/** The global `fetch`, looked up at each call so that a test (or a polyfill) replacing it later is used. */
export const globalFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

function readsBodies(hooks: KyHooks | undefined): boolean {
  return Boolean(hooks?.afterResponse?.length || hooks?.beforeError?.length || hooks?.beforeRetry?.length);
}

/**
 * The client's ky instance. Options given to the client win over those of the user's instance, which win over the
 * client's defaults (30 s per attempt, the retry policy of `retryPolicy`).
 */
export function createClientKy(options: KyClientOptions): ClientKy {
  const seen: { settings?: Omit<ClientKy, 'ky'> } = {};
  const instance = (options.ky ?? ky).extend((parent: Options) => {
    const timeout = options.timeout ?? parent.timeout ?? DEFAULT_TIMEOUT;
    const settings = {
      fetch: options.fetch ?? (parent.fetch as typeof fetch | undefined) ?? globalFetch,
      retry: retryPolicy(options.retry, parent.retry),
      // 0 has always meant "no limit" here; to ky it would mean "fail at once".
      timeout: timeout === 0 ? false : timeout,
      hooksReadBodies: readsBodies(parent.hooks) || readsBodies(options.hooks) || !!parent.onDownloadProgress,
    };
    seen.settings = settings;
    const extension: Options = {
      retry: settings.retry,
      timeout: settings.timeout,
      // A 304 answers a conditional request; every other failed status fails the attempt, so that ky retries it.
      throwHttpErrors: (status) => status !== 304,
      // Requests go to the absolute URLs of links: a prefix or default query of the user's instance would break them.
      prefixUrl: '',
      searchParams: undefined,
    };
    if (options.hooks) extension.hooks = options.hooks;
    return extension;
  });
  // ky calls back at once, with the instance's options.
  return { ky: instance, ...seen.settings! };
}
