import type { EventType } from '../contract/index.js';
import { WebhookVerificationError } from '../errors/webhook-verification-error.js';
import { createMemoryDedupeStore, type DedupeStore } from './dedupe-store.js';
import type { WebhookSecrets } from './signature.js';
import { type EventOf, isKnownEventType, type StorefrontEvent } from './storefront-event.js';
import { type VerifyWebhookOptions, verifyWebhook } from './verify-webhook.js';

/** A fetch-style request handler: Next.js route handlers, Hono, Workers, Bun and Deno take it as is. */
export type WebhookHandler = (request: Request) => Promise<Response>;

/**
 * What to do with each event type: `template.updated` gets an event whose `data` is a `TemplateEventData`. `*`
 * gets every known type that has no handler of its own.
 */
export type WebhookHandlers = { [T in EventType]?: (event: EventOf<T>) => unknown } & {
  '*'?: (event: StorefrontEvent) => unknown;
};

/** A failure the handler answered with a 4xx or 5xx, for the app's logs. */
export interface WebhookFailure {
  /** The answer's status: 400 or 401 for a delivery refused, 500 for a handler (or dedupe store) that threw. */
  status: number;
  /** The `webhook-id`, when the request had one. */
  id: string | undefined;
}

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions extends VerifyWebhookOptions {
  /** The endpoint's secret, or several while a rotation overlaps. */
  secrets: WebhookSecrets;
  /** The handlers, by event type. A type without one (or unknown to this SDK) is acknowledged and left alone. */
  on: WebhookHandlers;
  /**
   * Drops repeated deliveries by `webhook-id`: a {@link DedupeStore} (`createRedisDedupeStore` for several
   * processes), or `false` to handle every delivery. Default: `createMemoryDedupeStore()`, this process only.
   */
  dedupe?: DedupeStore | false;
  /**
   * How long an id is remembered, in ms. Default two days: longer than the Standard's retry schedule (about 28
   * hours). A resend asked for later is handled again.
   */
  dedupeTtl?: number;
  /** Told of every delivery refused and every handler that threw. Default `console.error`. */
  onError?: (error: unknown, failure: WebhookFailure) => void;
}

/** The status answering a refused delivery: 401 when it is not the sender's, 400 when it is not well formed. */
function statusOf(error: WebhookVerificationError): number {
  return error.code === 'WEBHOOK_SIGNATURE' || error.code === 'WEBHOOK_TIMESTAMP' ? 401 : 400;
}

/**
 * A webhook receiver, `(request) => Promise<Response>`: verifies each delivery (see `verifyWebhook`), drops
 * repeats, runs the handler of its type and answers
 * - 204 once the handler resolved (or when no handler takes the type, or the delivery is a repeat);
 * - 401 for a signature that does not match or a timestamp out of tolerance, 400 for missing headers or a body
 *   that is not the raw one, each with its message as text: the sender does not retry a 4xx to good effect;
 * - 500 when the handler threw (its dedupe claim given up) or the dedupe store failed, so that the sender
 *   retries; 405 for another method than POST.
 *
 * A repeat that arrives while the first delivery is still being handled is acknowledged at once: should that
 * first one then fail, its 500 makes the sender retry it.
 *
 * @example
 * export const POST = createWebhookHandler({
 *   secrets: process.env.WEBHOOK_SECRET!,
 *   on: { 'template.updated': async (event) => rebuild(event.data.theme_id) },
 * });
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const { secrets, on, onError = console.error, dedupeTtl = 2 * 86_400_000 } = options;
  const dedupe = options.dedupe === false ? undefined : (options.dedupe ?? createMemoryDedupeStore());
  const answer = (status: number, text?: string) =>
    new Response(text, { status, headers: text ? { 'content-type': 'text/plain; charset=utf-8' } : {} });

  return async (request) => {
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    const id = request.headers.get('webhook-id') ?? undefined;
    let event: StorefrontEvent;
    try {
      event = await verifyWebhook(request, request.headers, secrets, options);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      const status = statusOf(error);
      onError(error, { status, id });
      return answer(status, error.message);
    }
    const type: unknown = event.type;
    const run = isKnownEventType(type) ? (on[type] ?? on['*']) : undefined;
    if (!run) return answer(204);
    let claimed = false;
    try {
      // A verified delivery always has its id.
      if (dedupe) {
        claimed = await dedupe.claim(id!, dedupeTtl);
        if (!claimed) return answer(204);
      }
      await (run as (event: StorefrontEvent) => unknown)(event);
      return answer(204);
    } catch (error) {
      if (claimed) await dedupe!.release?.(id!).catch((cause: unknown) => onError(cause, { status: 500, id }));
      onError(error, { status: 500, id });
      return answer(500, 'The webhook handler failed');
    }
  };
}
