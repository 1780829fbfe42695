/**
 * The sandbox's changes of its own state (fault rules, the clock) that this process is storing: shown here at once,
 * so that the MSW mock's `clock.advance()` and `faults.add()` stay synchronous, while the store's write brings them
 * to every process sharing it. Once no write is in flight, the store's state is shown again.
 */
export class OwnWrites<T> {
  private view: T | undefined;
  private inFlight = 0;
  private last: Promise<void> = Promise.resolve();
  private failed: unknown[] = [];

  /** Whether a write of this process is being stored. */
  get pending(): boolean {
    return this.inFlight > 0;
  }

  /** What this process shows: its own latest change while one is being stored, else `stored()`. */
  read(stored: () => T): T {
    return this.inFlight > 0 ? (this.view as T) : stored();
  }

  /** Shows `next` at once and stores the change through `write` (a write of the store). */
  change(next: T, write: () => Promise<unknown>): void {
    this.view = next;
    this.inFlight++;
    // A failure is kept for `stored()`: a caller that does not wait (the MSW mock's) leaves no unhandled rejection.
    const done = write().then(
      () => undefined,
      (error: unknown) => void this.failed.push(error),
    );
    this.last = done.finally(() => {
      if (--this.inFlight === 0) this.view = undefined;
    });
  }

  /** Resolves once every change made so far is stored or failed; a failure is left for {@link stored}. */
  idle(): Promise<void> {
    return this.last;
  }

  /**
   * Resolves once every change made so far is stored (the store runs writes one at a time, in order); rejects
   * with the error of one that failed since the last call.
   */
  async stored(): Promise<void> {
    await this.last;
    const [error] = this.failed.splice(0);
    if (error !== undefined) throw error;
  }
}
