/**
 * The delivery loop: makes the pending attempts that are due on the core's clock, records each outcome and the
 * next attempt in one write, and disables endpoints that answer `410 Gone` or whose attempts have all failed for five
 * days of attempts being made (days when none was pending do not count). It is
 * not in any request's path: a write stages its event's first attempts (`api/events/record.ts`) and wakes the
 * loop once committed.
 *
 * Across processes sharing a PostgreSQL store, each attempt is claimed through the database (`Store.claim`):
 * the claim is held while the attempt runs and ends with the process, so an attempt is made by one process at a
 * time, and one that dies mid-attempt costs at most one repeat, by whichever process looks next. Attempts in
 * flight are bounded, so that slow receivers cannot exhaust the server.
 */

import { stageDelivery } from '../api/events/record.js';
import { deliveryBody } from '../api/events/representations.js';
import type { CoreContext } from '../core/types.js';
import { StoreUnavailableError } from '../store/errors.js';
import type { Transaction, WebhookDeliveryRow, WebhookEndpointRow } from '../store/types.js';
import { DISABLE_AFTER_MS, retryAfterMs, retryDelay } from './schedule.js';
import { signatureHeader } from './signature.js';

/** A webhook request as the loop hands it to a {@link WebhookSender}. */
export interface OutgoingWebhook {
  url: string;
  /**
   * `content-type`, `webhook-id`, `webhook-timestamp`, `webhook-signature`, `user-agent`, and
   * {@link REQUEST_ID_HEADER} when an API request caused the event.
   */
  headers: Record<string, string>;
  body: string;
  /** The whole exchange's limit, ms: past it the sender rejects. */
  timeoutMs: number;
}

/** What came back. */
export interface WebhookAnswer {
  status: number;
  /** The `Retry-After` header, if any. */
  retryAfter: string | null;
}

/**
 * Sends one webhook and resolves with the receiver's answer (any status), or rejects with an error that says why
 * none came (refused address, connection error, timeout). Never follows redirects.
 */
export type WebhookSender = (webhook: OutgoingWebhook) => Promise<WebhookAnswer>;

/** Options of the delivery loop. */
export interface DelivererOptions {
  send: WebhookSender;
  /** Attempts in flight at most. Default 8. */
  concurrency?: number;
  /** An attempt's limit, ms. Default 15 000 (events.md). */
  timeoutMs?: number;
  /**
   * How often the loop looks for due attempts on its own, ms, beside being woken by this process's writes: for
   * attempts staged by other processes, and retries falling due. Default 1000.
   */
  pollMs?: number;
}

const USER_AGENT = 'storefront-server-webhooks/1 (+https://www.standardwebhooks.com/)';

/**
 * The header that names the API request whose write caused the event (the body's `request_id`, repeated for logs
 * and proxies that do not read bodies). Not `X-Request-Id`: a delivery is a request of its own, the same id goes
 * on every attempt and resend, and a receiver's framework or proxy would take an incoming `X-Request-Id` as this
 * delivery's own id (and keep it for its log), mixing the write's id with the delivery's. Not a `webhook-` name
 * either: those are the Standard's. Like every header it is not signed; the body's `request_id` is.
 */
export const REQUEST_ID_HEADER = 'storefront-request-id';
const MAX_ERROR_LENGTH = 500;

/** The delivery loop of one core. */
export class Deliverer {
  private readonly inFlight = new Map<string, Promise<boolean>>();
  /**
   * Attempts this process leaves alone until the next poll, and when it may try again (epoch ms, wall clock): those
   * another process held when this one tried, so that processes do not keep asking for what another is making, and
   * those whose outcome could not be recorded, so that a store that is down is not asked again at once.
   */
  private readonly deferred = new Map<string, number>();
  /** An outcome could not be recorded, and none has been since: said once, not once per attempt. */
  private unrecorded = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private passing: Promise<number> | undefined;
  /** A pass was asked for while one ran. */
  private again = false;
  private closed = false;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly context: CoreContext,
    private readonly options: DelivererOptions,
  ) {
    this.concurrency = options.concurrency ?? 8;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.pollMs = options.pollMs ?? 1000;
  }

  /** Looks for due attempts now (this process wrote some): an attempt due at once starts within the write's turn. */
  wake(): void {
    if (!this.closed) void this.pass().catch(() => 0);
  }

  /** Starts looking on its own, every `pollMs`. */
  start(): void {
    this.schedule(0);
  }

  /**
   * Makes every attempt that is due now on the core's clock, retries included as the clock reaches them, and
   * resolves once none is left that this process may make: what tests await instead of waiting.
   */
  async drain(): Promise<void> {
    for (;;) {
      const started = await this.pass();
      const made = await Promise.all([...this.inFlight.values()]);
      if (started === 0 && !made.some(Boolean)) return;
    }
  }

  /** Stops looking and waits for the attempts in flight. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.pass()
        .catch(() => 0)
        .finally(() => {
          if (!this.closed && !this.timer) this.schedule(this.pollMs);
        });
    }, ms);
    // A loop of its own never keeps a process (or a test runner) alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  /**
   * Starts the due attempts there is room for; resolves with how many it started. One pass at a time: a pass asked
   * for meanwhile runs once the current one ends, so that attempts staged during a pass do not wait for the poll.
   */
  private pass(): Promise<number> {
    if (this.passing) {
      this.again = true;
      return this.passing;
    }
    this.passing = this.startDue().finally(() => {
      this.passing = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
    return this.passing;
  }

  private async startDue(): Promise<number> {
    const { store, clock } = this.context;
    try {
      await store.sync?.();
    } catch (error) {
      if (error instanceof StoreUnavailableError) return 0;
      throw error;
    }
    const now = clock.now();
    const wall = Date.now();
    for (const [id, until] of this.deferred) if (until <= wall) this.deferred.delete(id);
    const due = store
      .where('webhook_deliveries', 'status', 'pending')
      .filter(
        (row) => row.due_at !== null && row.due_at <= now && !this.inFlight.has(row.id) && !this.deferred.has(row.id),
      );
    due.sort((a, b) => a.due_at! - b.due_at! || Number(a.id) - Number(b.id));
    let started = 0;
    for (const row of due) {
      if (this.inFlight.size >= this.concurrency) break;
      const attempt = this.attempt(row.id).then(
        (made) => {
          this.inFlight.delete(row.id);
          // Room again: what waited for it goes next (not after a refused claim: that would ask again at once).
          if (made && !this.closed) this.wake();
          return made;
        },
        (error: unknown) => {
          // Its outcome was not recorded (the store failed): the attempt stays pending, made again at a later poll.
          this.inFlight.delete(row.id);
          this.deferred.set(row.id, Date.now() + this.pollMs);
          if (!this.unrecorded) {
            this.unrecorded = true;
            console.error(`storefront-server: webhook attempts are not recorded, retrying: ${messageOf(error)}`);
          }
          return false;
        },
      );
      this.inFlight.set(row.id, attempt);
      started++;
    }
    return started;
  }

  /** Makes one attempt, if no other process holds it and it is still pending; resolves with whether it did. */
  private async attempt(id: string): Promise<boolean> {
    const { store } = this.context;
    const claim = store.claim
      ? await store.claim('webhook_deliveries', id).catch(() => null)
      : { row: store.get('webhook_deliveries', id), release: async () => undefined };
    if (!claim) {
      this.deferred.set(id, Date.now() + this.pollMs);
      return false;
    }
    try {
      const row = claim.row;
      if (row?.status !== 'pending') return false;
      await this.send(row);
      return true;
    } finally {
      await claim.release().catch(() => undefined);
    }
  }

  private async send(row: WebhookDeliveryRow): Promise<void> {
    const { store, clock, addresses } = this.context;
    const endpoint = store.get('webhook_endpoints', row.endpoint_id);
    const event = store.get('events', row.event_id);
    if (!endpoint || !event || endpoint.status !== 'enabled') {
      const why = !event ? 'the event was pruned' : !endpoint ? 'the endpoint was deleted' : 'the endpoint is disabled';
      await this.record(row, { error: `Not sent: ${why}`, final: true });
      return;
    }
    const body = deliveryBody(addresses, event);
    const now = clock.now();
    const timestamp = Math.floor(now / 1000);
    const secrets = [endpoint.secret];
    if (endpoint.previous_secret && (endpoint.previous_secret_until ?? 0) > now) secrets.push(endpoint.previous_secret);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': event.public_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': await signatureHeader(secrets, event.public_id, timestamp, body),
    };
    if (event.request_id !== undefined) headers[REQUEST_ID_HEADER] = event.request_id;
    const started = performance.now();
    // The send's outcome first, then one record of it: a record that fails is not a failed send (the attempt stays
    // pending, see `pass`), whatever the receiver answered.
    const outcome = await this.options.send({ url: endpoint.url, headers, body, timeoutMs: this.timeoutMs }).then(
      (answer) => ({ status: answer.status, retryAfter: answer.retryAfter }),
      (error: unknown) => ({ error: messageOf(error) }),
    );
    await this.record(row, { ...outcome, sentAt: now, duration: Math.round(performance.now() - started) });
  }

  /** Records an attempt's outcome, the next attempt and what it means for the endpoint, in one write. */
  private record(
    row: WebhookDeliveryRow,
    outcome: {
      status?: number;
      retryAfter?: string | null;
      error?: string;
      /** When it was sent, by the core's clock; absent when it was not. */
      sentAt?: number;
      duration?: number;
      final?: boolean;
    },
  ): Promise<void> {
    const { store, clock } = this.context;
    const written = store.write((tx) => {
      const current = tx.get('webhook_deliveries', row.id);
      // Ended unsent while it was in flight (another attempt of its event succeeded, see `endOtherAttempts`): it
      // was sent, so that is what the list must say, and the series it belonged to stays ended.
      const endedInFlight =
        current?.status === 'failed' && current.error?.startsWith(ENDED) === true && outcome.sentAt !== undefined;
      // Recorded meanwhile by another process (this one's claim had lapsed): the first record stands.
      if (current?.status !== 'pending' && !endedInFlight) return;
      const now = clock.now();
      const status = outcome.status;
      const ok = status !== undefined && status >= 200 && status < 300;
      const endpoint = tx.get('webhook_endpoints', row.endpoint_id);
      let next: number | undefined;
      let disabled: string | undefined;
      if (!ok && !outcome.final && !endedInFlight && endpoint) {
        const failingSince = endpoint.failing_since ?? now;
        if (status === 410) disabled = 'The endpoint answered 410 Gone';
        else if (now - failingSince >= DISABLE_AFTER_MS) {
          disabled = `Every delivery failed for 5 days, since ${new Date(failingSince).toISOString()}`;
        } else {
          const waited = status === 429 || status === 503 ? retryAfterMs(outcome.retryAfter ?? null, now) : undefined;
          const delay = retryDelay(row.attempt, waited);
          if (delay !== undefined) next = now + delay;
        }
        // The 5 days count while attempts keep being made: a series ended with none of the endpoint's left pending
        // is a pause, and the days without events that follow it must not disable the endpoint at its next failure.
        const paused =
          next === undefined &&
          disabled === undefined &&
          !tx
            .where('webhook_deliveries', 'endpoint_id', endpoint.id)
            .some((d) => d.status === 'pending' && d.id !== row.id);
        updateEndpoint(tx, endpoint, now, { failing_since: paused ? null : failingSince, disabled });
      } else if (ok && endpoint && endpoint.failing_since !== null) {
        updateEndpoint(tx, endpoint, now, { failing_since: null });
      }
      const error = ok ? null : (outcome.error ?? `The endpoint answered ${status}`);
      tx.update('webhook_deliveries', row.id, {
        status: ok ? 'succeeded' : 'failed',
        response_status: status ?? null,
        duration_ms: outcome.duration ?? null,
        error: error === null ? null : error.slice(0, MAX_ERROR_LENGTH),
        due_at: null,
        next_attempt_on: next === undefined ? null : new Date(next).toISOString(),
        attempted_on: outcome.sentAt === undefined ? null : new Date(outcome.sentAt).toISOString(),
      });
      if (ok) endOtherAttempts(tx, row);
      if (next !== undefined) {
        const { event_id, event_type, endpoint_id } = row;
        stageDelivery(tx, { event_id, event_type, endpoint_id, attempt: row.attempt + 1 }, next, now);
      }
    });
    return written.then(() => {
      this.unrecorded = false;
    });
  }
}

/**
 * Ends, unsent, the pending attempts of `delivered`'s event to its endpoint: those of another series (a resend's,
 * or the series a resend was made beside) would give the receiver again what it has just acknowledged. An event is
 * retried until the endpoint answers 2xx, by whichever series; a resend asked for after that is sent all the same.
 */
/** How an attempt {@link endOtherAttempts} ended begins: told apart from the other "Not sent" records. */
const ENDED = 'Not sent: delivery ';

function endOtherAttempts(tx: Transaction, delivered: WebhookDeliveryRow): void {
  // By event: its attempts are a few, where an endpoint's grow with every event it was sent.
  for (const other of tx.where('webhook_deliveries', 'event_id', delivered.event_id)) {
    if (other.status !== 'pending' || other.endpoint_id !== delivered.endpoint_id || other.id === delivered.id)
      continue;
    tx.update('webhook_deliveries', other.id, {
      status: 'failed',
      error: `${ENDED}${delivered.id} of this event succeeded`,
      due_at: null,
      next_attempt_on: null,
    });
  }
}

function updateEndpoint(
  tx: Parameters<Parameters<CoreContext['store']['write']>[0]>[0],
  endpoint: WebhookEndpointRow,
  now: number,
  change: { failing_since: number | null; disabled?: string },
): void {
  if (change.disabled === undefined && endpoint.failing_since === change.failing_since) return;
  tx.update('webhook_endpoints', endpoint.id, {
    failing_since: change.failing_since,
    ...(change.disabled === undefined
      ? {}
      : { status: 'disabled' as const, disabled_reason: change.disabled, updated_on: new Date(now).toISOString() }),
  });
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message || 'The request failed';
}
