import type { EventFields, Links } from '../contract/index.js';
import { importKeys, signedContent, type WebhookSecrets } from './signature.js';

/**
 * An event to sign: its fields (`request_id` optional: a test of a receiver that does not read it need not make
 * one up), and `_class` and `_links` when the test needs them.
 */
export type TestEvent = Omit<EventFields, 'request_id'> & {
  request_id?: string | null;
  _class?: string[];
  _links?: Links;
};

/** Options of {@link signTestWebhook}. */
export interface SignTestWebhookOptions {
  /** `webhook-id`. Default: the event's `id`; required when the body is given as text. */
  id?: string;
  /** `webhook-timestamp`, in epoch seconds. Default: now. */
  timestamp?: number;
}

/** A delivery as the server would POST it: its body and headers. */
export interface SignedTestWebhook {
  /** `JSON.stringify(event)` and a newline, as the server sends it; text given as the body is kept as is. */
  body: string;
  headers: {
    'content-type': 'application/json';
    'webhook-id': string;
    'webhook-timestamp': string;
    /** One `v1,<base64>` signature per secret, space-separated. */
    'webhook-signature': string;
    /** The event's `request_id`, when it has one, as the server sends it. */
    'storefront-request-id'?: string;
  };
}

/**
 * Signs a delivery of `event` with `secret` (or several: one signature each, as during a rotation), for an app's
 * unit tests: POST the body with the headers to the app's receiver. `event` may be text, signed as is (a body the
 * server never sends, to test a receiver's refusals).
 *
 * @example
 * const { body, headers } = await signTestWebhook(event, 'whsec_…');
 * const response = await handler(new Request('http://app.test/webhooks', { method: 'POST', body, headers }));
 */
export async function signTestWebhook(
  event: TestEvent | string,
  secret: WebhookSecrets,
  options: SignTestWebhookOptions = {},
): Promise<SignedTestWebhook> {
  const body = typeof event === 'string' ? event : `${JSON.stringify(event)}\n`;
  const id = options.id ?? (event as TestEvent).id;
  if (!id) throw new TypeError('signTestWebhook: no id');
  const seconds = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const content = await signedContent(id, seconds, body);
  const signatures = await Promise.all(
    (await importKeys(secret)).map(async (key) => {
      // 32 bytes: no need for the chunked encoder of ../shared/base64.ts.
      const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, content));
      return `v1,${btoa(String.fromCharCode(...signature))}`;
    }),
  );
  const headers: SignedTestWebhook['headers'] = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': seconds,
    'webhook-signature': signatures.join(' '),
  };
  const requestId = (event as TestEvent).request_id;
  if (requestId) headers['storefront-request-id'] = requestId;
  return { body, headers };
}
