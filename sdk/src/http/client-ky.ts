/**
 * The ky instance of a client: the user's instance (or ky itself) extended with the client's retry policy, timeout
 * and error statuses, the user's hooks kept. What changes per request (headers, credentials, the attempt's `fetch`,
 * the retry decision) travels in each call's options, where ky gives it to that request alone.
 */
import type * as Ky from 'ky';
import ky from 'ky';
import { type InheritedRetry, type RetryOption, type RetryPolicy, retryPolicy } from './retry.js';

/**
 * ky's hooks (`beforeRequest`, `afterResponse`, `beforeRetry`, `beforeError`), as `ClientOptions.hooks` takes them.
 * Typed in the form of ky 1, the SDK's own ky; they run in the ky of the client's instance, so with a ky 2 instance
 * of yours they must be in ky 2's form (one state argument): give them to that instance (`.extend({ hooks })`).
 */
export type KyHooks = Ky.Hooks;

/**
 * ky's retry options (`limit`, `methods`, `statusCodes`, `afterStatusCodes`, `maxRetryAfter`, `backoffLimit`,
 * `delay`, `jitter`, `retryOnTimeout`, `shouldRetry`), as `ClientOptions.retry` takes them: the same in ky 1 and 2.
 */
export type RetryOptions = Ky.RetryOptions;

/** What ky hands `retry.shouldRetry`, in ky 1 and 2 alike. */
export interface KyRetryState {
  error: Error;
  /** 1 for the first retry. */
  retryCount: number;
}

/** The options the client gives each call of its instance: names and meanings that ky 1.14 and ky 2 share. */
export interface KyCallOptions {
  method: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  retry: { limit: number; shouldRetry: (state: KyRetryState) => Promise<boolean | undefined> };
  json?: unknown;
  signal?: AbortSignal;
}

/** What the client reads of the options of the instance it extends. */
export interface KyDefaults {
  /**
   * A method, so that its parameter is compared both ways: ky 2.2 types its option as taking the `Request` it
   * always passes, ky 1 as `fetch` itself, and an instance of either must fit.
   */
  fetch?(input: URL | RequestInfo, init?: RequestInit): Promise<Response>;
  timeout?: number | false;
  retry?: InheritedRetry;
  hooks?: { afterResponse?: readonly unknown[]; beforeError?: readonly unknown[]; beforeRetry?: readonly unknown[] };
  onDownloadProgress?: unknown;
}

/**
 * What the client sets on the instance it extends: options of the same name and meaning in ky 1.14 and ky 2
 * (`throwHttpErrors` as a function came with ky 1.14, hence the oldest ky an instance may be of).
 */
export interface KyExtension {
  retry: RetryPolicy;
  timeout: number | false;
  throwHttpErrors: (status: number) => boolean;
  searchParams: undefined;
  /** `ClientOptions.hooks`, in the form of the instance's ky: typed loosely, so that a ky 2 instance's `extend` fits. */
  hooks?: object;
}

/**
 * A ky instance (`ky` itself, or made with `ky.create()` or `.extend()`), as `ClientOptions.ky` takes it: of ky
 * 1.14 or later 1.x, or of ky 2. Declared by what the client uses of it, which both majors have under the same
 * names, rather than as the `KyInstance` of one major: an app on ky 2 passes its instance while the SDK's own ky
 * stays 1, which runs on every Node the SDK does (ky 2 needs Node 22).
 */
export interface KyInstance {
  (input: URL, options: KyCallOptions): PromiseLike<Response | undefined>;
  extend(defaults: (parent: KyDefaults) => KyExtension): KyInstance;
}

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

/** Whether a response of `status` fails its attempt: all but 2xx and 304, which answers a conditional request. */
export function isFailure(status: number): boolean {
  return (status < 200 || status > 299) && status !== 304;
}

function readsBodies(hooks: KyDefaults['hooks']): boolean {
  return Boolean(hooks?.afterResponse?.length || hooks?.beforeError?.length || hooks?.beforeRetry?.length);
}

/**
 * The client's ky instance. Options given to the client win over those of the user's instance, which win over the
 * client's defaults (30 s per attempt, the retry policy of `retryPolicy`).
 */
export function createClientKy(options: KyClientOptions): ClientKy {
  const seen: { settings?: Omit<ClientKy, 'ky'> } = {};
  const base: KyInstance = options.ky ?? ky;
  const instance = base.extend((parent) => {
    const timeout = options.timeout ?? parent.timeout ?? DEFAULT_TIMEOUT;
    const settings = {
      fetch: options.fetch ?? parent.fetch ?? globalFetch,
      retry: retryPolicy(options.retry, parent.retry),
      // 0 has always meant "no limit" here; to ky it would mean "fail at once".
      timeout: timeout === 0 ? false : timeout,
      hooksReadBodies: readsBodies(parent.hooks) || readsBodies(options.hooks) || !!parent.onDownloadProgress,
    };
    seen.settings = settings;
    // Requests go to the absolute URLs of links, which a prefix of the user's instance would break: the transport
    // passes them as `URL`s, to which ky (1 and 2) applies none, rather than clear an option that ky 2 renamed.
    const extension: KyExtension = {
      retry: settings.retry,
      timeout: settings.timeout,
      // Failed statuses fail the attempt, so that ky retries them.
      throwHttpErrors: isFailure,
      // Nor a default query of the user's instance.
      searchParams: undefined,
    };
    if (options.hooks) extension.hooks = options.hooks;
    return extension;
  });
  // ky calls back at once, with the instance's options.
  return { ky: instance, ...seen.settings! };
}
