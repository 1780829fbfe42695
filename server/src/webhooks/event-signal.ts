import type { EventSignal } from '../core/types.js';

/** An {@link EventSignal} that `fire()` wakes, and `stopping` for good. */
export class WrittenEvents implements EventSignal {
  private waiters = new Set<() => void>();

  constructor(private readonly stopping?: AbortSignal) {
    stopping?.addEventListener('abort', () => this.fire(), { once: true });
  }

  next(timeoutMs: number): Promise<void> {
    if (this.stopping?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      this.waiters.add(done);
    });
  }

  fire(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
