/**
 * The request journal: what each request asked and what it was answered, newest last, bounded in size (the oldest
 * entry goes when it is full). A store of one process (JSON files, memory, the MSW mock) keeps it in a ring in the
 * memory of the process ({@link RequestJournal}); a store that processes share (PostgreSQL) in the store
 * ({@link SharedRequestJournal}), so that a test reads through any of them the requests every one answered.
 */
import type { CoreHandler, RequestTrace } from '../core/types.js';
import { StoreUnavailableError } from '../store/errors.js';
import type { SharedJournal } from '../store/types.js';
import { ShellFault } from './shell-fault.js';

/** One request as the journal keeps it. */
export interface JournalEntry {
  /** ISO 8601, by the sandbox's clock, when the request arrived. */
  at: string;
  method: string;
  /** The URL's path, without the query. */
  path: string;
  /**
   * The status whose headers were sent (a truncated or slow body's too); null: none was, a fault rule reset the
   * connection first.
   */
  status: number | null;
  /** Milliseconds from arrival to the answer's headers (or to the reset). */
  duration_ms: number;
  /**
   * The request's id, as its answer's `X-Request-Id` gave it: the client's own when sane, else the server's
   * (`core/request-id.ts`). Null for a connection a fault rule reset: no answer named it.
   */
  request_id: string | null;
  /** The app and user behind its bearer token, when it had a valid one. */
  app_id: string | null;
  user_id: string | null;
  /** The route that matched (`GET /v1/shops/:shop_id/products`); null: none did (see `status`: 404 or 405). */
  route: string | null;
  /** The id of the fault rule that hit the request (`fault-3`); null: none did. */
  fault: string | null;
}

/** Which entries {@link RequestJournal.entries} returns; every given field must match. */
export interface JournalFilter {
  /** Upper-case method. */
  method?: string;
  /** A prefix of the path. */
  path?: string;
  status?: number;
}

/** Entries kept by default. */
export const JOURNAL_SIZE = 1000;

/** The journal of one process. */
export class RequestJournal {
  private readonly ring: JournalEntry[] = [];
  private next = 0;

  constructor(readonly size = JOURNAL_SIZE) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`journal size must be a whole number above 0, got ${size}`);
  }

  record(entry: JournalEntry): void {
    if (this.ring.length < this.size) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.size;
  }

  /** The entries matching `filter`, oldest first. */
  entries(filter: JournalFilter = {}): JournalEntry[] {
    const ordered =
      this.ring.length < this.size ? this.ring : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    return ordered.filter(
      (entry) =>
        (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
        (filter.path === undefined || entry.path.startsWith(filter.path)) &&
        (filter.status === undefined || entry.status === filter.status),
    );
  }

  clear(): void {
    this.ring.length = 0;
    this.next = 0;
  }

  /** `handle`, recording each request it answers, dated by `now`. */
  around(handle: CoreHandler, now: () => number): CoreHandler {
    return journaled(handle, now, (entry) => this.record(entry));
  }
}

/** The journal of the processes sharing a store (PostgreSQL), kept in the store. */
export class SharedRequestJournal {
  /**
   * `catchUp`: the store's `sync`, awaited before a request is dated, so that its time is the clock's as any
   * process last set it (the clock's offset is in the store).
   */
  constructor(
    private readonly shared: SharedJournal,
    private readonly catchUp: () => Promise<void> | undefined,
    readonly size = JOURNAL_SIZE,
  ) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`journal size must be a whole number above 0, got ${size}`);
  }

  /** The entries matching `filter`, oldest first. */
  async entries(filter: JournalFilter = {}): Promise<JournalEntry[]> {
    const method = filter.method?.toUpperCase();
    return (await this.shared.list({ ...filter, ...(method === undefined ? {} : { method }) })) as JournalEntry[];
  }

  clear(): Promise<void> {
    return this.shared.clear();
  }

  /**
   * `handle`, recording each request it answers, dated by `now`: stored before the answer goes, so that a test
   * reading the journal once answered finds its request, through any process.
   */
  around(handle: CoreHandler, now: () => number): CoreHandler {
    const record = (entry: JournalEntry) =>
      this.shared.add(entry, this.size).catch((error: unknown) => {
        // The request was answered: it keeps its answer, and the journal misses it.
        console.error(`storefront-server: ${entry.method} ${entry.path}: not journaled: ${(error as Error).message}`);
      });
    return journaled(handle, now, record, this.catchUp);
  }
}

/**
 * `handle`, with each request it answers given to `record` (and awaited) before its answer is returned; dated
 * once `catchUp` (when given) has brought the store up to date.
 */
function journaled(
  handle: CoreHandler,
  now: () => number,
  record: (entry: JournalEntry) => void | Promise<void>,
  catchUp?: () => Promise<void> | undefined,
): CoreHandler {
  return async (request) => {
    const started = performance.now();
    const catchingUp = catchUp?.();
    if (catchingUp) {
      try {
        await catchingUp;
        // What the fault layer and the core would otherwise wait for again.
        request.caughtUp = true;
      } catch (error) {
        // The database did not answer: the fault layer tries again and answers its 503, journaled as any answer.
        if (!(error instanceof StoreUnavailableError)) throw error;
      }
    }
    const at = new Date(now()).toISOString();
    const trace: RequestTrace = {};
    request.trace = trace;
    const entry = (status: number | null): JournalEntry => ({
      at,
      method: request.method,
      path: request.url.pathname,
      status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      request_id: trace.requestId ?? null,
      app_id: trace.appId ?? null,
      user_id: trace.userId ?? null,
      route: trace.route ?? null,
      fault: trace.fault ?? null,
    });
    let response: Awaited<ReturnType<CoreHandler>>;
    try {
      response = await handle(request);
    } catch (error) {
      // A fault the shell carries out (a reset, a body cut short or trickling) is a request answered too.
      if (error instanceof ShellFault) await record(entry(error.status));
      throw error;
    }
    await record(entry(response.status));
    return response;
  };
}
