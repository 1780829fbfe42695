/**
 * The sandbox's rate limit (`--rate-limit 120/60s`, off by default: the spec states none): a quota of requests per
 * fixed window for each app and user, announced on every answer to a request with a valid token by the
 * `RateLimit-Policy` and `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers, and a 429 with `Retry-After`
 * past it. Windows are aligned on the core's clock (a test that moves the clock past a window starts the next one),
 * so that every process of a fleet counts the same window; the count itself is the store's when other processes
 * share it (on PostgreSQL an upsert per block of counts taken ahead, see `postgres-rate-counts.ts`), else this
 * process's.
 */
import { Lru } from '@storefront-platform/sdk/internal';
import type { Clock, Principal, RequestLimiter } from '../core/types.js';
import type { SharedRateCounts } from '../store/types.js';
import { HttpError } from './http-error.js';

/** A quota of requests per window. */
export interface RateLimitPolicy {
  /** Requests allowed per window, per app and user. */
  quota: number;
  /** The window, in whole seconds. */
  windowSeconds: number;
}

/** The policy's name in the fields. */
const POLICY = 'app-user';
const MAX_QUOTA = 1_000_000_000;
const MAX_WINDOW = 86_400;
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/**
 * `120/60s` (also `120/60`, `600/1m`, `5000/1h`) as a policy; `undefined` for anything else. The quota is 1 to
 * 10^9 requests, the window 1 s to a day.
 */
export function parseRateLimit(text: string): RateLimitPolicy | undefined {
  const match = /^\s*(\d{1,10})\s*\/\s*(\d{1,6})\s*([smh]?)\s*$/.exec(text);
  if (!match) return undefined;
  const quota = Number(match[1]);
  const windowSeconds = Number(match[2]) * UNITS[match[3] || 's']!;
  if (quota < 1 || quota > MAX_QUOTA || windowSeconds < 1 || windowSeconds > MAX_WINDOW) return undefined;
  return { quota, windowSeconds };
}

/** The policy as the flag and the control API write it: `120/60s`. */
export function formatRateLimit(policy: RateLimitPolicy): string {
  return `${policy.quota}/${policy.windowSeconds}s`;
}

/** A limit as an option gives it: `120/60s`, a policy, or nothing (off); a `TypeError` when it is neither. */
export function rateLimitOption(
  what: string,
  given: string | RateLimitPolicy | undefined,
): RateLimitPolicy | undefined {
  if (given === undefined) return undefined;
  const policy = typeof given === 'string' ? parseRateLimit(given) : checkedPolicy(given);
  if (!policy) {
    throw new TypeError(
      `${what} must be QUOTA/WINDOW, e.g. "120/60s" (1 to ${MAX_QUOTA} requests per 1 s to 24 h), got ${JSON.stringify(given)}`,
    );
  }
  return policy;
}

function checkedPolicy(given: RateLimitPolicy): RateLimitPolicy | undefined {
  const { quota, windowSeconds } = given ?? {};
  const whole = (n: unknown, max: number) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= max;
  return whole(quota, MAX_QUOTA) && whole(windowSeconds, MAX_WINDOW) ? { quota, windowSeconds } : undefined;
}

/** Windows counted at most in one process (app and user pairs); past it the least recently used go. */
const CAPACITY = 10_000;

/**
 * The rate limit of one core: its policy, read at each request (the sandbox's setting may change it), and the
 * counts of the current windows.
 */
export class RateLimiter implements RequestLimiter {
  #local = new Lru<string, { start: number; used: number }>({ maxEntries: CAPACITY });

  constructor(
    /** The policy in force; `undefined`: off. */
    private readonly policy: () => RateLimitPolicy | undefined,
    private readonly clock: Clock,
    /** Counts kept where every process sharing the data sees them (PostgreSQL); absent: this process counts. */
    private readonly shared?: SharedRateCounts,
  ) {}

  /** Forgets this process's counts (the MSW mock's `reset()`). */
  clear(): void {
    this.#local = new Lru({ maxEntries: CAPACITY });
  }

  /**
   * Counts a request of `principal`: resolves with the fields its answer carries, or rejects with the 429 (the
   * fields and `Retry-After` among its headers) when the window's quota is spent; `undefined` when off.
   */
  async take(principal: Principal): Promise<Record<string, string> | undefined> {
    const policy = this.policy();
    if (!policy) return undefined;
    const now = this.clock.now();
    const windowMs = policy.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    // App and user: the store's ids hold no space (PostgreSQL's text holds no NUL, the obvious separator).
    const key = `${principal.appId} ${principal.userId}`;
    const used = this.shared ? await this.shared.add(key, start, policy.quota) : this.#count(key, start);
    // Whole seconds, rounded up: a client that waits them is past the window's end.
    const reset = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    const headers: Record<string, string> = {
      'ratelimit-policy': `"${POLICY}";q=${policy.quota};w=${policy.windowSeconds}`,
      ratelimit: `"${POLICY}";r=${Math.max(0, policy.quota - used)};t=${reset}`,
    };
    if (used <= policy.quota) return headers;
    throw new HttpError(
      429,
      `Rate limit exceeded: ${policy.quota} requests per ${policy.windowSeconds} s for each app and user; retry in ${reset} s`,
      undefined,
      { ...headers, 'retry-after': String(reset) },
    );
  }

  #count(key: string, start: number): number {
    const entry = this.#local.get(key);
    // Not a later window: one counted on a clock since moved back (a sandbox's) would hold the key till then.
    if (entry && entry.start === start) {
      entry.used++;
      return entry.used;
    }
    this.#local.set(key, { start, used: 1 });
    return 1;
  }
}
