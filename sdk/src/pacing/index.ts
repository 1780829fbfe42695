/** Pacing by the server's rate limit fields: the budgets, the fields, and the wait before a request. */
import { sleep } from '../http/retry.js';
import type { RateBudget } from './rate-budget.js';

export { createRateBudget, type RateBudget } from './rate-budget.js';
export { type RateLimitReading, readRateLimit } from './rate-limit-fields.js';

/**
 * Resolves once `owner`'s budget lets a request go, or rejects with the signal's reason when it aborts first. A
 * budget that fails (Redis down) lets the request go: pacing is a courtesy, the retries still answer a 429.
 */
export async function waitForBudget(budget: RateBudget, owner: string, signal?: AbortSignal): Promise<void> {
  for (;;) {
    let wait: number;
    try {
      wait = await budget.take(owner);
    } catch {
      return;
    }
    if (!(wait > 0)) return;
    await sleep(wait, signal);
  }
}
