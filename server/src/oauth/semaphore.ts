/** At most `limit` tasks at once; the others wait their turn, first come first served. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    /** Read as each task asks for its turn. */
    public limit: number,
  ) {}

  /** Runs `task` once a turn is free; the turn passes on when it settles, whichever way. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++;
    // The turn is handed over by `release`, so `active` already counts this task when it resumes.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
