import { WebhookVerificationError } from '../errors/webhook-verification-error.js';
import { decodeBase64 } from '../shared/base64.js';
import { bytesOf, notRaw, type RawBody } from './raw-body.js';
import { importKeys, signedContent, type WebhookSecrets } from './signature.js';
import type { StorefrontEvent } from './storefront-event.js';

/**
 * A delivery's headers: a `Headers`, or a plain record such as Node's `req.headers` (values a string or a list of
 * them). Names in any case.
 */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

/** Where the time comes from, in epoch milliseconds: an object with `now()` (`Date` is one) or a function. */
export type WebhookClock = { now(): number } | (() => number);

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /**
   * Seconds a delivery's `webhook-timestamp` may be away from the clock, in the past (a replay) or in the future
   * (a sender's clock ahead). Default 300, the Standard's.
   */
  tolerance?: number;
  /** The clock the timestamp is compared with. Default `Date`. */
  clock?: WebhookClock;
}

/** The value of header `name` (lower case) in `headers`, repeated lines joined by a space. */
function read(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return typeof value === 'string' ? value : value?.join(' ');
  }
  return undefined;
}

/**
 * Whether one of `signatures` is the HMAC of `content` under one of `keys`. One HMAC per key, however many
 * signatures the header lists (`crypto.subtle.verify` hashes the body once per signature: 2 000 of them on a 1 MB
 * body kept a receiver busy for seconds), each compared in constant time.
 */
async function matches(keys: CryptoKey[], signatures: Uint8Array[], content: Promise<ArrayBuffer>): Promise<boolean> {
  for (const key of keys) {
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, await content));
    // Every byte compared, wherever the first difference is; a length that differs starts the difference.
    if (signatures.some((bytes) => !mac.reduce((diff, byte, i) => diff | (byte ^ bytes[i]!), bytes.length ^ 32))) {
      return true;
    }
  }
  return false;
}

/**
 * Verifies a webhook delivery (Standard Webhooks 1.0) and returns its event. Runs on Web Crypto alone: Node,
 * browsers, workers, Deno, Bun.
 *
 * - `rawBody`: the body exactly as received (see `RawBody`); parsed JSON is refused (`WEBHOOK_BODY`), and so is
 *   a body re-serialised from it (the server ends every body with a newline, which `JSON.stringify` drops).
 * - `secrets`: the endpoint's secret, or several while a rotation overlaps: one match is enough.
 * - Rejects with a {@link WebhookVerificationError}: `WEBHOOK_HEADERS` (one of `webhook-id`,
 *   `webhook-timestamp`, `webhook-signature` missing), `WEBHOOK_TIMESTAMP` (outside `tolerance`, checked first),
 *   `WEBHOOK_SIGNATURE` (no `v1` signature matches), `WEBHOOK_BODY`. A secret that is no base64 is a `TypeError`.
 *
 * @example
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.WEBHOOK_SECRET!);
 * if (event.type === 'template.updated') console.log(event.data.file_name);
 */
export async function verifyWebhook(
  rawBody: RawBody,
  headers: WebhookHeaders,
  secrets: WebhookSecrets,
  { tolerance = 300, clock = Date }: VerifyWebhookOptions = {},
): Promise<StorefrontEvent> {
  const body = await bytesOf(rawBody);
  const id = read(headers, 'webhook-id');
  const timestamp = read(headers, 'webhook-timestamp');
  const signature = read(headers, 'webhook-signature');
  if (!id || !timestamp || !signature) {
    throw new WebhookVerificationError(
      'WEBHOOK_HEADERS',
      'A webhook-id, webhook-timestamp or webhook-signature is missing',
    );
  }
  // `Date` is a function too: `now` first.
  // Seconds between the timestamp and this clock, either way: one from the future is as suspect as an old one.
  const off = Math.abs(Math.round(('now' in clock ? clock.now() : clock()) / 1000 - +timestamp));
  // NaN (no number) fails the comparison: refused with the rest.
  if (!(off <= tolerance)) {
    throw new WebhookVerificationError(
      'WEBHOOK_TIMESTAMP',
      `webhook-timestamp ${timestamp} is ${off >= 0 ? `${off} s off, past the ${tolerance} s tolerated: a replay, or a clock off` : 'not a number'}`,
    );
  }
  // `v1,<base64>` entries, space-separated; other versions are for other schemes. A comma may end an entry when
  // repeated header lines were joined by ", ".
  const signatures = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => decodeBase64(entry.slice(3).replace(/,$/, '')))
    .filter((bytes) => bytes !== undefined);
  const keys = await importKeys(secrets);
  if (!(await matches(keys, signatures, signedContent(id, timestamp, body)))) {
    // The server's bodies end with "\n": a body that lost it and then matches was parsed and serialised again.
    if (body.at(-1) !== 10 && (await matches(keys, signatures, signedContent(id, timestamp, body, '\n')))) {
      throw notRaw('re-serialised (it lost the final newline)');
    }
    throw new WebhookVerificationError('WEBHOOK_SIGNATURE', `No signature of webhook ${id} matches the secret(s)`);
  }
  // The sender signed it: a body that is no JSON is its fault, a `SyntaxError`.
  return JSON.parse(new TextDecoder().decode(body)) as StorefrontEvent;
}
