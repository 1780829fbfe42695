import type { EventType } from '../contract/index.js';
import { WebhookVerificationError } from '../errors/webhook-verification-error.js';
import { DEFAULT_MAX_BODY_SIZE, readBody } from './body-limit.js';
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
  /**
   * The answer's status: 400 or 401 for a delivery refused, 413 for a body over `maxBodySize`, 500 for a handler (or
   * dedupe store) that threw; 204 when the handler resolved but the dedupe store failed to record it.
   */
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
   * How long an id is remembered once its handler resolved, in ms. Default two days: longer than the Standard's
   * retry schedule (about 28 hours). A resend asked for later is handled again.
   */
  dedupeTtl?: number;
  /**
   * How long an id stays claimed while its handler runs, in ms: a repeat meanwhile is answered 409, and a claim
   * whose process died lapses after it. Default 60 s, four times the platform's 15 s limit on an attempt (the
   * sender retries 5 s after a timeout); a handler that may run longer needs more, or a retry may run beside it.
   */
  claimTtl?: number;
  /**
   * Most bytes read of a delivery's body, which is read before its signature can be checked: a larger one is
   * answered 413 without reading the rest. Default 1 MiB (the platform's events are a few KB); `false` for none.
   */
  maxBodySize?: number | false;
  /** Told of every delivery refused and every handler (or dedupe store) that threw. Default `console.error`. */
  onError?: (error: unknown, failure: WebhookFailure) => void;
}

/** The status answering a refused delivery: 401 when it is not the sender's, 400 when it is not well formed. */
function statusOf(error: WebhookVerificationError): number {
  return error.code === 'WEBHOOK_SIGNATURE' || error.code === 'WEBHOOK_TIMESTAMP' ? 401 : 400;
}

/**
 * A webhook receiver, `(request) => Promise<Response>`: verifies each delivery (see `verifyWebhook`), drops
 * repeats, runs the handler of its type and answers
 * - 204 once the handler resolved (or when no handler takes the type, or the delivery was handled before);
 * - 401 for a signature that does not match or a timestamp out of tolerance, 400 for missing headers or a body
 *   that is not the raw one, 413 for a body over `maxBodySize`, each with its message as text: the sender does not
 *   retry a 4xx to good effect;
 * - 409 for a repeat that arrives while the first delivery is still being handled: the sender's attempt timed out
 *   meanwhile (the platform's after 15 s) and nobody reads the first one's answer, so this one must not be a 2xx;
 *   the sender retries later, and then learns how the first one ended;
 * - 500 when the handler threw (its dedupe claim given up) or the dedupe store failed, so that the sender
 *   retries; 405 for another method than POST.
 *
 * @example
 * export const POST = createWebhookHandler({
 *   secrets: process.env.WEBHOOK_SECRET!,
 *   on: { 'template.updated': async (event) => rebuild(event.data.theme_id) },
 * });
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const {
    secrets,
    on,
    onError = console.error,
    dedupeTtl = 2 * 86_400_000,
    claimTtl = 60_000,
    maxBodySize = DEFAULT_MAX_BODY_SIZE,
  } = options;
  if (maxBodySize !== false && !(Number.isSafeInteger(maxBodySize) && maxBodySize > 0)) {
    // NaN (an unset environment variable) would otherwise mean no limit at all.
    throw new TypeError(`maxBodySize must be a positive whole number of bytes, or false; got ${maxBodySize}`);
  }
  // Said at each delivery rather than here: a build (Next.js collecting its routes) creates the handler without the
  // variables the app runs with.
  const unset = (typeof secrets === 'string' ? [secrets] : secrets).includes('')
    ? new TypeError('A webhook secret is empty: is the environment variable that holds it set?')
    : undefined;
  const dedupe = options.dedupe === false ? undefined : (options.dedupe ?? createMemoryDedupeStore());
  const answer = (status: number, text?: string) =>
    new Response(text, { status, headers: text ? { 'content-type': 'text/plain; charset=utf-8' } : {} });

  return async (request) => {
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    if (unset) throw unset;
    const id = request.headers.get('webhook-id') ?? undefined;
    const body = await readBody(request, maxBodySize);
    if (!body) {
      const message = `The webhook body is over the ${maxBodySize} bytes this receiver reads`;
      onError(new RangeError(message), { status: 413, id });
      return answer(413, message);
    }
    let event: StorefrontEvent;
    try {
      event = await verifyWebhook(body, request.headers, secrets, options);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      const status = statusOf(error);
      onError(error, { status, id });
      return answer(status, error.message);
    }
    const type: unknown = event.type;
    const run = isKnownEventType(type) ? (on[type] ?? on['*']) : undefined;
    if (!run) return answer(204);
    let claimant: string | undefined;
    try {
      // A verified delivery always has its id.
      if (dedupe) {
        const call = crypto.randomUUID();
        const state = await dedupe.claim(id!, claimTtl, call);
        if (state === 'done') return answer(204);
        if (state === 'running') return answer(409, `Webhook ${id} is being handled: retry later`);
        claimant = call;
      }
      await (run as (event: StorefrontEvent) => unknown)(event);
      // Handled whatever the store says: a failure to record it is logged, and a repeat may be handled again.
      await dedupe?.done(id!, dedupeTtl).catch((cause: unknown) => onError(cause, { status: 204, id }));
      return answer(204);
    } catch (error) {
      if (claimant)
        await dedupe!.release?.(id!, claimant).catch((cause: unknown) => onError(cause, { status: 500, id }));
      onError(error, { status: 500, id });
      return answer(500, 'The webhook handler failed');
    }
  };
}
