/**
 * `connectSandbox()`: the control API of a running sandbox from any Node process (Playwright's global setup, a
 * test runner's worker, a script), with the operations the MSW mock has in-process, as promises.
 */
import type { SnapshotInfo } from '../store/types.js';
import type { FaultRule, FaultRuleInput } from './faults.js';
import type { JournalEntry, JournalFilter } from './journal.js';
import { CONTROL_OPERATIONS, type ControlOperation } from './operations.js';
import type { SandboxRateLimitInfo } from './sandbox.js';
import { SandboxError } from './sandbox-error.js';

/** Where the control API is and the token it takes (`server.control`, or the start banner's two lines). */
export interface SandboxConnection {
  /** The control API, `{origin}/_sandbox`. */
  url: string;
  token: string;
}

/** The clock's time, as the control API tells it after each operation. */
export interface SandboxTime {
  /** Epoch milliseconds. */
  epochMs: number;
  /** ISO 8601. */
  now: string;
}

/** The control API, operation by operation; a refused one rejects with a {@link SandboxError}. */
export interface SandboxClient {
  /** Back to the data the server started with (the seed, for one that seeded). */
  reset(): Promise<void>;
  snapshots: {
    take(name: string): Promise<SnapshotInfo>;
    list(): Promise<SnapshotInfo[]>;
    restore(name: string): Promise<void>;
    delete(name: string): Promise<void>;
  };
  clock: {
    now(): Promise<SandboxTime>;
    /** `epochMs`, a `Date` or an ISO 8601 string. */
    set(time: number | Date | string): Promise<SandboxTime>;
    advance(ms: number): Promise<SandboxTime>;
  };
  journal: {
    /** The requests the process that answers kept, oldest first. */
    entries(filter?: JournalFilter): Promise<JournalEntry[]>;
    clear(): Promise<void>;
  };
  /** Fault rules of the process that answers (docs/server.md, "Steering the sandbox"). */
  faults: {
    /** Adds a rule; resolves to it as listed (its id, its seed). */
    add(rule: FaultRuleInput): Promise<FaultRule>;
    list(): Promise<FaultRule[]>;
    clear(): Promise<void>;
  };
  /** The rate limit per app and user of the process that answers (docs/server.md, "Rate limits"). */
  rateLimit: {
    /** The limit in force; `null`: none. */
    get(): Promise<SandboxRateLimitInfo | null>;
    /** Puts `limit` (`"120/60s"`) in force, or none (`null`). */
    set(limit: string | null): Promise<SandboxRateLimitInfo | null>;
  };
}

/** A client of the control API at `url`. */
export function connectSandbox({ url, token }: SandboxConnection): SandboxClient {
  const base = url.replace(/\/+$/, '');

  async function call(operation: ControlOperation, options: { name?: string; body?: unknown; query?: string } = {}) {
    const { method, path } = CONTROL_OPERATIONS[operation];
    const target = `${base}${path.replace(':name', encodeURIComponent(options.name ?? ''))}${options.query ?? ''}`;
    const response = await fetch(target, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!response.ok) {
      throw new SandboxError(String(body.message ?? `${method} ${target}: ${response.status}`), response.status);
    }
    return body;
  }
  const time = (body: Record<string, unknown>): SandboxTime => ({
    epochMs: body.epoch_ms as number,
    now: body.now as string,
  });
  const info = (body: Record<string, unknown>): SnapshotInfo => ({
    name: body.name as string,
    taken_on: body.taken_on as string,
  });

  const rateLimit = (body: Record<string, unknown>): SandboxRateLimitInfo | null =>
    typeof body.limit === 'string'
      ? { limit: body.limit, quota: body.quota as number, window_s: body.window_s as number }
      : null;

  return {
    reset: async () => void (await call('reset')),
    snapshots: {
      take: async (name) => info(await call('snapshots.take', { name })),
      list: async () => ((await call('snapshots.list')).snapshots as Record<string, unknown>[]).map(info),
      restore: async (name) => void (await call('snapshots.restore', { name })),
      delete: async (name) => void (await call('snapshots.delete', { name })),
    },
    clock: {
      now: async () => time(await call('clock.now')),
      set: async (at) => time(await call('clock.set', { body: { now: at instanceof Date ? at.toISOString() : at } })),
      advance: async (ms) => time(await call('clock.advance', { body: { ms } })),
    },
    journal: {
      async entries(filter = {}) {
        const query = new URLSearchParams();
        if (filter.method !== undefined) query.set('method', filter.method);
        if (filter.path !== undefined) query.set('path', filter.path);
        if (filter.status !== undefined) query.set('status', String(filter.status));
        const search = query.size > 0 ? `?${query}` : '';
        return (await call('journal.entries', { query: search })).entries as JournalEntry[];
      },
      clear: async () => void (await call('journal.clear')),
    },
    faults: {
      add: async (rule) => (await call('faults.add', { body: rule })) as unknown as FaultRule,
      list: async () => (await call('faults.list')).faults as FaultRule[],
      clear: async () => void (await call('faults.clear')),
    },
    rateLimit: {
      get: async () => rateLimit(await call('rateLimit.get')),
      set: async (limit) => rateLimit(await call('rateLimit.set', { body: { limit } })),
    },
  };
}
