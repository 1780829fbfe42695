/**
 * The client's retry policy in ky's terms: ky's `retry` options with the client's defaults under them, and the wait
 * ky will take before a retry, which the `retry` event announces before ky sleeps.
 */
import type { RetryOptions } from 'ky';

/** ky's retry options with every field filled in. */
export type RetryPolicy = Required<Omit<RetryOptions, 'shouldRetry' | 'jitter'>> &
  Pick<RetryOptions, 'shouldRetry' | 'jitter'>;

/** What the client's `retry` option accepts: ky's options, a number of retries, or `false` for none. */
export type RetryOption = RetryOptions | number | false;

/**
 * A ky instance's `retry`, as ky 1 or ky 2 holds it: fields of the same names and meanings, typed apart (ky 2.2's
 * lists are `readonly`, its `shouldRetry` may return nothing), laid into the client's policy as they are: each field
 * means the same to either ky.
 */
export type InheritedRetry = number | false | { readonly [K in keyof RetryOptions]?: unknown };

/** The statuses worth another attempt: ky's minus 413, which the same body would get again. */
const RETRIED_STATUSES = [408, 429, 500, 502, 503, 504];

/**
 * The client's defaults, where they differ from ky's: no 413, timeouts retried, `Retry-After` honoured on every
 * retried status and waits capped at 30 s (a server asking for longer is still retried, after 30 s). The methods are
 * the API's, POST included: the transport sends each POST with an `Idempotency-Key`, the same on every attempt, so
 * a retried create whose first answer was lost gets that answer instead of creating twice.
 */
const DEFAULTS: RetryPolicy = {
  limit: 2,
  methods: ['get', 'head', 'put', 'delete', 'options', 'post'],
  statusCodes: RETRIED_STATUSES,
  afterStatusCodes: RETRIED_STATUSES,
  maxRetryAfter: 30_000,
  backoffLimit: 30_000,
  delay: (attempt) => 300 * 2 ** (attempt - 1),
  retryOnTimeout: true,
};

function fields(option: InheritedRetry | undefined): RetryOptions {
  if (option === false) return { limit: 0 };
  if (typeof option === 'number') return { limit: option };
  // ky reads an explicit `undefined` as "not given": so do we, rather than let it erase a default.
  return Object.fromEntries(Object.entries(option ?? {}).filter(([, value]) => value !== undefined)) as RetryOptions;
}

/** The policy of `options` laid over `inherited` (a ky instance's `retry`) laid over the client's defaults. */
export function retryPolicy(options: RetryOption | undefined, inherited?: InheritedRetry): RetryPolicy {
  return { ...DEFAULTS, ...fields(inherited), ...fields(options) };
}

/** ky's wait before retry number `retryCount` when the server did not say: the backoff, capped by `backoffLimit`. */
export function backoff(policy: RetryPolicy, retryCount: number): number {
  // With `jitter`, ky waits a random part of it: this is the upper bound.
  return Math.min(policy.backoffLimit, policy.delay(retryCount));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
