/**
 * Webhooks under MSW: the mock's core delivers with a sender of its own, to a function the test registered for
 * the endpoint's URL (a real `Request`, no network) or else to the URL itself through `fetch(bypass(…))`, so that
 * MSW lets it through and a suite with `onUnhandledRequest: 'error'` does not fail. The same loop, headers and
 * signatures as the server's; no address restriction (the mock is the developer's own).
 */
import { bypass } from 'msw';
import { deliveryBody } from '../api/events/representations.js';
import type { Addresses } from '../core/types.js';
import { type DeliveredEvent, type MockWebhookDelivery, madeDelivery } from '../sandbox/deliveries.js';
import { readAtMost } from '../shared/read-at-most.js';

export type { DeliveredEvent, MockWebhookDelivery };

import type { Store, Transaction, WebhookDeliveryRow } from '../store/types.js';
import type { WebhookAnswer, WebhookSender } from '../webhooks/deliverer.js';

/**
 * A test's webhook handler: called with the delivery as a real `Request` (`POST`, the event's JSON, the
 * `webhook-id`, `webhook-timestamp` and `webhook-signature` headers); its `Response`'s status is the outcome
 * (2xx succeeds, `410` disables the endpoint, `Retry-After` on 429/503 is honoured). A throw is a failed attempt
 * with no answer, as a connection error would be. The request's `signal` aborts at the attempt's timeout.
 */
export type WebhookReceiver = (request: Request) => Response | Promise<Response>;

/** Options of the mock's webhook delivery (`createHandlers({ webhooks })`). */
export interface MockWebhookOptions {
  /** An attempt's limit, ms: a receiver (function or URL) that has not answered by then fails it. Default 15 000. */
  timeoutMs?: number;
  /** Attempts in flight at most. Default 8. */
  concurrency?: number;
}

/** `mock.webhooks`: where deliveries go, what was delivered, and waiting for due attempts. */
export interface MockWebhooks {
  /**
   * Delivers the attempts to endpoints whose URL is `url` to `receiver` instead of the network (one receiver per
   * URL: a second call replaces the first). Returns a function that unregisters it. `reset()` unregisters all.
   *
   * @example
   * mock.webhooks.receive('http://app.test/webhooks', (request) => app.handleWebhook(request));
   */
  receive(url: string, receiver: WebhookReceiver): () => void;
  /**
   * The attempts made so far (succeeded or failed; attempts still pending are not in it), oldest first, newest
   * last, in the order they were made. Each a fresh copy.
   */
  deliveries(): MockWebhookDelivery[];
  /**
   * Makes every attempt due now by the mock's clock, retries included as the clock reaches them, and resolves
   * once none is left: await it after a write, or after moving the clock, instead of waiting. Deliveries are also
   * made on their own, promptly, without it.
   */
  drain(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** The most of a receiver's answer read (and thrown away): enough for any acknowledgement. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** What a mock keeps about webhooks across its cores; `reset()` starts it over with the data. */
export class MockWebhookState {
  private receivers = new Map<string, WebhookReceiver>();
  /** Bodies as sent, by event public id (every attempt of an event carries the same body). */
  private bodies = new Map<string, string>();
  /** Ids of the attempts made, in the order they were recorded. */
  private made: string[] = [];
  private seen = new Set<string>();
  /** Bumped by `reset()`: the senders of cores replaced by it refuse to send. */
  private generation = 0;
  readonly timeoutMs: number;
  readonly concurrency: number | undefined;

  constructor(options: MockWebhookOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.concurrency = options.concurrency;
  }

  receive(url: string, receiver: WebhookReceiver): () => void {
    const key = keyOf(url);
    this.receivers.set(key, receiver);
    return () => {
      if (this.receivers.get(key) === receiver) this.receivers.delete(key);
    };
  }

  reset(): void {
    this.generation++;
    this.receivers = new Map();
    this.bodies = new Map();
    this.made = [];
    this.seen = new Set();
  }

  /** The sender of a core built now: it stops sending once the mock is reset. */
  sender(): WebhookSender {
    const generation = this.generation;
    return async (webhook) => {
      if (generation !== this.generation) throw new Error('Not sent: the mock was reset');
      this.bodies.set(webhook.headers['webhook-id']!, webhook.body);
      const signal = AbortSignal.timeout(webhook.timeoutMs);
      const request = new Request(webhook.url, {
        method: 'POST',
        headers: webhook.headers,
        body: webhook.body,
        redirect: 'manual',
        signal,
      });
      const receiver = this.receivers.get(keyOf(webhook.url));
      const answer = receiver
        ? withTimeout(
            Promise.resolve().then(() => receiver(request)),
            webhook.timeoutMs,
          )
        : fetch(bypass(request)).catch((error: unknown) => {
            throw signal.aborted ? timeoutError(webhook.timeoutMs) : error;
          });
      const response = await answer;
      if (!(response instanceof Response)) throw new TypeError('The webhook receiver did not return a Response');
      await discardBody(response);
      return { status: response.status, retryAfter: response.headers.get('retry-after') } satisfies WebhookAnswer;
    };
  }

  /**
   * `store` with the attempts it records noted in the order they were made (a retry staged early and made late
   * comes after the attempts made before it).
   */
  observe(store: Store): Store {
    const generation = this.generation;
    const note = () => {
      // A replaced store's late writes (an attempt that was in flight at `reset()`) are not the new data's.
      if (generation !== this.generation) return;
      const fresh: WebhookDeliveryRow[] = [];
      for (const status of ['succeeded', 'failed'] as const) {
        for (const row of store.where('webhook_deliveries', 'status', status)) {
          if (!this.seen.has(row.id)) fresh.push(row);
        }
      }
      fresh.sort((a, b) => Number(a.id) - Number(b.id));
      for (const row of fresh) {
        this.seen.add(row.id);
        this.made.push(row.id);
      }
    };
    return Object.assign(Object.create(store) as Store, {
      async write<T>(fn: (tx: Transaction) => T): Promise<T> {
        const before = store.revision('webhook_deliveries');
        const result = await store.write(fn);
        if (store.revision('webhook_deliveries') !== before) note();
        return result;
      },
    });
  }

  deliveries(store: Store, addresses: Addresses): MockWebhookDelivery[] {
    const out: MockWebhookDelivery[] = [];
    for (const id of this.made) {
      const row = store.get('webhook_deliveries', id);
      if (!row) continue;
      const eventRow = store.get('events', row.event_id);
      const body = eventRow ? this.bodies.get(eventRow.public_id) : undefined;
      const sent = body ?? (eventRow && deliveryBody(addresses, eventRow));
      const event = sent ? (JSON.parse(sent) as DeliveredEvent) : undefined;
      // An event pruned (30 days) takes its attempts with it: nothing left to show.
      if (!event) continue;
      out.push(madeDelivery(row, event));
    }
    return out;
  }
}

/**
 * Reads the answer's body to its end, so that its connection is free again, or stops past
 * {@link MAX_ANSWER_BYTES}. Read rather than cancelled: under MSW's interception, a passed-through response's
 * `body.cancel()` settles only when the request's signal aborts.
 */
async function discardBody(response: Response): Promise<void> {
  if (!response.body) return;
  // The status came: an answer cut short is still an answer.
  await readAtMost(response.body, MAX_ANSWER_BYTES).catch(() => undefined);
}

/** URLs compared as parsed (`http://App.test:80/x` is `http://app.test/x`). */
function keyOf(url: string): string {
  return new URL(url).href;
}

function timeoutError(ms: number): Error {
  return new Error(`No answer within ${ms / 1000} s`);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
