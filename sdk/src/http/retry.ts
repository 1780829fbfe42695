/** When and how often a failed request is sent again. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  limit?: number;
  /** Upper-case methods that may be retried. Default: the idempotent ones, GET, HEAD, PUT, DELETE, OPTIONS. */
  methods?: readonly string[];
  /** Statuses that trigger a retry. Default 408, 429, 500, 502, 503, 504. Network errors and timeouts always do. */
  statuses?: readonly number[];
  /** Delay before the first retry, in ms; doubles each time. Default 300. */
  delay?: number;
  /** Longest wait between attempts, in ms, including one asked for by `Retry-After`. Default 30 000. */
  maxDelay?: number;
}

/** {@link RetryOptions} with every default filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** `false` or `0` disables retries; a number sets `limit`. */
export function retryPolicy(option: RetryOptions | number | false | undefined): RetryPolicy {
  const given: RetryOptions = typeof option === 'object' ? option : { limit: option === false ? 0 : option };
  return {
    limit: given.limit ?? 2,
    methods: given.methods ?? ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'],
    statuses: given.statuses ?? [408, 429, 500, 502, 503, 504],
    delay: given.delay ?? 300,
    maxDelay: given.maxDelay ?? 30_000,
  };
}

/**
 * Milliseconds to wait before retry number `retry` (1-based): the server's `Retry-After` (seconds or an
 * HTTP date) when given, else exponential backoff; capped by `maxDelay`.
 */
export function retryDelay(policy: RetryPolicy, retry: number, retryAfter: string | null, now = Date.now()): number {
  let wait = policy.delay * 2 ** (retry - 1);
  if (retryAfter) {
    const seconds = Number(retryAfter);
    const asked = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now;
    if (Number.isFinite(asked)) wait = Math.max(0, asked);
  }
  return Math.min(wait, policy.maxDelay);
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
