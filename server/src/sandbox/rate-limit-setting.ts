/**
 * The rate limit as the sandbox sets it: the store's row `rate_limit` of `sandbox_settings`, so that every process
 * sharing the store (a PostgreSQL fleet) limits alike, as its counts are shared already. Without the row, the limit
 * the server or mock started with.
 */
import type { RateLimitPolicy } from '../http/rate-limit.js';
import type { Store } from '../store/types.js';
import { OwnWrites } from './own-writes.js';
import { clearSetting } from './settings.js';

const ROW = 'rate_limit';

/** The rate limit in force, set through the sandbox or given at start. */
export class RateLimitSetting {
  private readonly own = new OwnWrites<RateLimitPolicy | null | undefined>();

  constructor(
    private readonly store: Store,
    private readonly initial: RateLimitPolicy | undefined,
  ) {}

  /** The policy in force; `undefined`: none. */
  get(): RateLimitPolicy | undefined {
    const set = this.own.read(() => this.store.get('sandbox_settings', ROW)?.rate_limit);
    return set === undefined ? this.initial : (set ?? undefined);
  }

  /** Puts `policy` in force for every process from their next request (`undefined`: none). */
  set(policy: RateLimitPolicy | undefined): void {
    const rate_limit = policy ?? null;
    this.own.change(rate_limit, () =>
      this.store.write((tx) => {
        if (tx.get('sandbox_settings', ROW)) tx.update('sandbox_settings', ROW, { rate_limit });
        else tx.insert('sandbox_settings', { id: ROW, rate_limit });
      }),
    );
  }

  /** Resolves once the changes made through this setting so far are stored; rejects when one was not. */
  stored(): Promise<void> {
    return this.own.stored();
  }

  /** Back to the limit given at start, for every process: for a fleet's first process as it starts. */
  async reset(): Promise<void> {
    await clearSetting(this.store, this.own, ROW);
  }
}
