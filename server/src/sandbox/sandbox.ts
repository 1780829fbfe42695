/**
 * The operations that steer a sandbox, on the core: one set, behind two doors (the MSW mock's methods and the
 * control API over HTTP, `http-door.ts`), each operation at both or at neither (see
 * docs/architecture "Steering the sandbox").
 */

import { eventResource } from '../api/events/representations.js';
import { type TriggerOptions, type TriggerType, triggerEvent } from '../api/events/trigger.js';
import type { CoreContext } from '../core/types.js';
import { formatRateLimit, parseRateLimit } from '../http/rate-limit.js';
import type { SnapshotInfo, SnapshotShelf, Store } from '../store/types.js';
import type { SandboxClock } from './clock.js';
import type { SandboxDelivery } from './deliveries.js';
import type { FaultSet, SandboxFaults } from './faults.js';
import type { JournalEntry, JournalFilter, RequestJournal, SharedRequestJournal } from './journal.js';
import type { RateLimitSetting } from './rate-limit-setting.js';
import { captureDataset, restoreDataset } from './restore.js';
import { SandboxError } from './sandbox-error.js';
import { createTeam } from './team.js';
import type { SandboxTeam } from './team-types.js';
import { expireSandboxToken, type IssuedSandboxToken, type IssueTokenOptions, issueSandboxToken } from './tokens.js';

/** Snapshots of the whole data, by name. */
export interface SandboxSnapshots {
  /** Keeps the data as it is now under `name` (letters, digits, `.`, `_`, `-`; at most 64), replacing one of that name. */
  take(name: string): Promise<SnapshotInfo>;
  /** The snapshots, by name. */
  list(): Promise<SnapshotInfo[]>;
  /** Puts the data back as it was when `name` was taken, in one write. */
  restore(name: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** The clock everything the core dates follows. */
export interface SandboxClockControls {
  /** Epoch milliseconds. */
  now(): number;
  /** The time reads `epochMs` from now on, and runs on from there. */
  set(epochMs: number): void;
  /** Moves the time `ms` milliseconds forward. */
  advance(ms: number): void;
}

/** The request journal of one process (the MSW mock's). */
export interface SandboxJournal {
  /** The requests kept (the newest {@link RequestJournal.size}), oldest first, matching `filter`. */
  entries(filter?: JournalFilter): JournalEntry[];
  clear(): void;
}

/** The rate limit in force, as the control API shows it. */
export interface SandboxRateLimitInfo {
  /** `120/60s`: requests per window, per app and user. */
  limit: string;
  quota: number;
  window_s: number;
}

/** The rate limit per app and user (docs/server.md, "Rate limits"). */
export interface SandboxRateLimit {
  /** The limit in force; `null`: none. */
  get(): SandboxRateLimitInfo | null;
  /** Puts `limit` (`"120/60s"`) in force from the next request, or none (`null`); resolves to it as `get` shows it. */
  set(limit: string | null): SandboxRateLimitInfo | null;
}

/** The request journal of the processes sharing a store (see {@link SharedRequestJournal}). */
export interface SharedSandboxJournal {
  /** The requests kept (the newest {@link SharedRequestJournal.size}), oldest first, matching `filter`. */
  entries(filter?: JournalFilter): Promise<JournalEntry[]>;
  clear(): Promise<void>;
}

/** A journal as a sandbox's parts give it. */
type AnyJournal = RequestJournal | SharedRequestJournal;

/** The sandbox's operations on the journal `J`. */
type JournalOf<J extends AnyJournal> = J extends RequestJournal ? SandboxJournal : SharedSandboxJournal;

/**
 * The operations on the core that a test steers a sandbox with, the team's data (`team.ts`) among them; `J`: its
 * journal, read at once or not.
 */
export interface Sandbox<J extends SandboxJournal | SharedSandboxJournal = SandboxJournal | SharedSandboxJournal>
  extends SandboxTeam {
  /**
   * Back to the data the sandbox started with (the seed, for one that seeded). Snapshots, the journal, the fault
   * rules and the clock stay.
   */
  reset(): Promise<void>;
  snapshots: SandboxSnapshots;
  clock: SandboxClockControls;
  journal: J;
  /** Fault rules: error statuses, delays and cut connections for matching requests. */
  faults: SandboxFaults;
  /**
   * Resolves once the clock moves and fault rules changed through this sandbox so far are stored (so seen by every
   * process sharing the store), and reads show what any process stored before the call; rejects with the store's
   * error when that cannot be. Changes take effect in this process at once (the MSW mock's operations stay
   * synchronous); the control API awaits this before and after each operation.
   */
  settled(): Promise<void>;
  rateLimit: SandboxRateLimit;
  /** An access token of the demo app, straight into the store, without a token request. */
  issueToken(options: IssueTokenOptions): Promise<IssuedSandboxToken>;
  /** Makes a token expire now; a {@link SandboxError} 404 for a token never issued. */
  expireToken(token: string): Promise<void>;
  /**
   * Writes the product or order an event type reports, with its event (`storefront-server trigger`), and resolves
   * with the event as `GET svc:event` shows it; a `TriggerError` for a bad type, shop, id or field.
   */
  trigger(type: TriggerType, options: TriggerOptions): Promise<object>;
  /** The webhook attempts made, and waiting until none is due. */
  webhooks: {
    /** The attempts made so far (succeeded or failed), oldest first, by every process of a shared store. */
    deliveries(): Promise<SandboxDelivery[]>;
    /** Makes every attempt due now by the sandbox's clock, and resolves once none is left. */
    drain(): Promise<void>;
  };
}

/** The webhook deliveries of what a sandbox steers. */
export interface SandboxWebhooks {
  /** The attempts made so far (succeeded or failed), oldest first, as this process's store holds them. */
  deliveries(): SandboxDelivery[];
  /** Makes every attempt due now by the sandbox's clock, and resolves once none is left. */
  drain(): Promise<void>;
}

/** What a sandbox steers. */
export interface SandboxParts<J extends AnyJournal = AnyJournal> {
  store: Store;
  /** What `reset` returns to. */
  reset: () => Promise<void>;
  shelf: SnapshotShelf;
  clock: SandboxClock;
  journal: J;
  faults: FaultSet;
  /** The rate limit set through the sandbox, for every process sharing its store. */
  rateLimit: RateLimitSetting;
  /** Told after the clock moved: the webhook loop looks again for attempts now due. */
  onClockMoved?: () => void;
  /** The core's context now (the MSW mock's changes at each reset): team data, tokens and triggers go through it. */
  context: () => CoreContext;
  webhooks: SandboxWebhooks;
}

const SNAPSHOT_NAME = /^[A-Za-z0-9._-]{1,64}$/;

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name)) {
    throw new SandboxError(
      `A snapshot's name is 1 to 64 letters, digits, ".", "_" or "-", got ${JSON.stringify(name)}`,
      400,
    );
  }
  return name;
}

/** The farthest a `Date` reaches either side of 1970, in ms (ECMA-262, "Time Values and Time Range"). */
const MAX_TIME = 8.64e15;

/**
 * `value`, a time (`from` 0) or a step from the time `from`, when the clock lands on a time a `Date` can hold: past
 * that, every answer's dates (and the journal's) would throw.
 */
function checkTime(what: string, value: unknown, from = 0): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SandboxError(`${what} must be a finite number of milliseconds, got ${JSON.stringify(value)}`, 400);
  }
  if (Math.abs(from + value) > MAX_TIME) {
    throw new SandboxError(
      `${what} would put the clock at ${from + value} ms, beyond the ±${MAX_TIME} ms of 1970 a date can hold`,
      400,
    );
  }
  return value;
}

/** The sandbox over `parts`. */
export function createSandbox<J extends AnyJournal>(parts: SandboxParts<J>): Sandbox<JournalOf<J>> {
  const { store, shelf, clock, journal } = parts;
  const moved = () => parts.onClockMoved?.();
  return {
    ...createTeam(parts.context),
    reset: () => parts.reset(),
    snapshots: {
      async take(name) {
        const info = { name: checkName(name), taken_on: new Date(clock.now()).toISOString() };
        await shelf.put(name, await captureDataset(store), info.taken_on);
        return info;
      },
      // Not the fleet's baseline (baseline.ts), which the shelf holds under a name no snapshot can take.
      list: async () => (await shelf.list()).filter((info) => !info.name.startsWith(':')),
      async restore(name) {
        const data = await shelf.get(checkName(name));
        if (!data) throw new SandboxError(`No snapshot named "${name}"`, 404);
        await restoreDataset(store, data);
      },
      async delete(name) {
        if (!(await shelf.delete(checkName(name)))) throw new SandboxError(`No snapshot named "${name}"`, 404);
      },
    },
    clock: {
      now: () => clock.now(),
      set(epochMs) {
        clock.set(checkTime('The time', epochMs));
        moved();
      },
      advance(ms) {
        clock.advance(checkTime('The step', ms, clock.now()));
        moved();
      },
    },
    // Its reading operations only: the journal's own (`record`, `around`) are not the sandbox's.
    journal: {
      entries: (filter?: JournalFilter) => journal.entries(filter),
      clear: () => journal.clear(),
    } as JournalOf<J>,
    faults: {
      add: (rule) => parts.faults.add(rule),
      list: () => parts.faults.list(),
      clear: () => parts.faults.clear(),
    },
    async settled() {
      await Promise.all([parts.faults.stored(), clock.stored(), parts.rateLimit.stored()]);
      await store.sync?.();
    },
    issueToken: (options) => issueSandboxToken(parts.context(), options),
    async expireToken(token) {
      if (typeof token !== 'string' || !(await expireSandboxToken(parts.context(), token))) {
        throw new SandboxError('expireToken: the sandbox never issued this token', 404);
      }
    },
    async trigger(type, options) {
      const context = parts.context();
      return eventResource(context.addresses, await triggerEvent(context, type, options));
    },
    webhooks: {
      async deliveries() {
        // Attempts other processes made, on a shared store: this one catches up first.
        await store.sync?.();
        return parts.webhooks.deliveries();
      },
      drain: () => parts.webhooks.drain(),
    },
    rateLimit: {
      get: () => rateLimitInfo(parts.rateLimit),
      set(limit) {
        const policy = limit === null ? undefined : typeof limit === 'string' ? parseRateLimit(limit) : undefined;
        if (limit !== null && !policy) {
          throw new SandboxError(
            `A rate limit is QUOTA/WINDOW, e.g. "120/60s" (1 s to 24 h), or null for none; got ${JSON.stringify(limit)}`,
            400,
          );
        }
        parts.rateLimit.set(policy);
        return rateLimitInfo(parts.rateLimit);
      },
    },
  };
}

function rateLimitInfo(setting: RateLimitSetting): SandboxRateLimitInfo | null {
  const policy = setting.get();
  return policy ? { limit: formatRateLimit(policy), quota: policy.quota, window_s: policy.windowSeconds } : null;
}
