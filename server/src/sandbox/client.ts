/**
 * `connectSandbox()`: the control API of a running sandbox from any Node process (Playwright's global setup, a
 * test runner's worker, a script), with the operations the MSW mock has in-process, as promises.
 */
import type { TriggerOptions, TriggerType } from '../api/events/trigger.js';
import type { SnapshotInfo } from '../store/types.js';
import type { SandboxDelivery } from './deliveries.js';
import type { FaultRule, FaultRuleInput } from './faults.js';
import type { JournalEntry, JournalFilter } from './journal.js';
import { CONTROL_OPERATIONS, type ControlOperation } from './operations.js';
import type { SandboxRateLimitInfo } from './sandbox.js';
import { SandboxError } from './sandbox-error.js';
import { teamClient } from './team-client.js';
import type { SandboxTeam } from './team-types.js';
import type { IssuedSandboxToken, IssueTokenOptions } from './tokens.js';

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

/**
 * The control API, operation by operation; a refused one rejects with a {@link SandboxError}. The team's data
 * (apps, users, shops, products, orders) as in-process (`SandboxTeam`).
 */
export interface SandboxClient extends SandboxTeam {
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
    /** The requests kept (on PostgreSQL, those of every process), oldest first. */
    entries(filter?: JournalFilter): Promise<JournalEntry[]>;
    clear(): Promise<void>;
  };
  /** Fault rules, for every process of the sandbox (docs/server.md, "Steering the sandbox"). */
  faults: {
    /** Adds a rule; resolves to it as listed (its id, its seed). */
    add(rule: FaultRuleInput): Promise<FaultRule>;
    list(): Promise<FaultRule[]>;
    clear(): Promise<void>;
  };
  /** An access token of the demo app (for `user`, default the demo user), without a token request. */
  issueToken(options: IssueTokenOptions): Promise<IssuedSandboxToken>;
  /** Makes a token expire now; rejects (404) for a token the sandbox never issued. */
  expireToken(token: string): Promise<void>;
  /**
   * Writes the product or order an event type reports, with its event, as `storefront-server trigger` does;
   * resolves with the event as `GET svc:event` shows it. Rejects (400) for a bad type, shop, id or field.
   */
  trigger(type: TriggerType, options: TriggerOptions): Promise<Record<string, unknown>>;
  webhooks: {
    /** The webhook attempts made so far (succeeded or failed), oldest first. */
    deliveries(): Promise<SandboxDelivery[]>;
    /** Makes every attempt due now by the sandbox's clock, and resolves once none is left. */
    drain(): Promise<void>;
  };
  /** The rate limit per app and user, for every process of the sandbox (docs/server.md, "Rate limits"). */
  rateLimit: {
    /** The limit in force; `null`: none. */
    get(): Promise<SandboxRateLimitInfo | null>;
    /** Puts `limit` (`"120/60s"`) in force, or none (`null`). */
    set(limit: string | null): Promise<SandboxRateLimitInfo | null>;
  };
}

/** The `message` of an error body of the control API; `undefined` for any other body. */
function errorMessageOf(text: string): string | undefined {
  try {
    const message = (JSON.parse(text) as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
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
    if (!response.ok) {
      // Not always the control API's JSON: a proxy in front of it answers its own page (an HTML 502).
      const message = errorMessageOf(text) ?? `${method} ${target}: ${response.status}`;
      throw new SandboxError(message, response.status);
    }
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
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
    ...teamClient(call),
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
    async issueToken(options) {
      const body = await call('issueToken', { body: options });
      return {
        accessToken: body.access_token as string,
        tokenType: 'Bearer',
        expiresAt: Date.parse(body.expires_at as string),
        scopes: body.scopes as IssuedSandboxToken['scopes'],
      };
    },
    expireToken: async (token) => void (await call('expireToken', { body: { token } })),
    trigger: (type, options) => call('trigger', { body: { type, ...options } }),
    webhooks: {
      deliveries: async () => (await call('webhooks.deliveries')).deliveries as SandboxDelivery[],
      drain: async () => void (await call('webhooks.drain')),
    },
    rateLimit: {
      get: async () => rateLimit(await call('rateLimit.get')),
      set: async (limit) => rateLimit(await call('rateLimit.set', { body: { limit } })),
    },
  };
}
