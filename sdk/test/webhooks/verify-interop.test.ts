/**
 * `verifyWebhook` and `signTestWebhook` against the Standard's reference implementation (the `standardwebhooks`
 * package): each accepts the other's signatures over the Standard's test vector and a two-secret rotation, and
 * both refuse the same stale, future and altered deliveries.
 */
import {
  signTestWebhook,
  verifyWebhook,
  type WebhookErrorCode,
  WebhookVerificationError,
} from '@storefront-platform/sdk/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newSecret, templateUpdated } from './events.js';

/** The Standard's published example (standard-webhooks/libraries, its test suites). */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const at = (seconds: number) => ({ clock: () => seconds * 1000 });
const vectorHeaders = (signature = VECTOR.signature, timestamp = VECTOR.timestamp) => ({
  'webhook-id': VECTOR.id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': signature,
});

/** The code `promise` rejects with, which must be a `WebhookVerificationError`. */
async function codeOf(promise: Promise<unknown>): Promise<WebhookErrorCode> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).code;
}

afterEach(() => vi.useRealTimers());

describe('the Standard test vector', () => {
  it('is what the reference library signs, and what signTestWebhook signs', async () => {
    const date = new Date(VECTOR.timestamp * 1000);
    expect(new Webhook(VECTOR.secret).sign(VECTOR.id, date, VECTOR.payload)).toBe(VECTOR.signature);
    const ours = await signTestWebhook(VECTOR.payload, VECTOR.secret, { id: VECTOR.id, timestamp: VECTOR.timestamp });
    expect(ours.headers['webhook-signature']).toBe(VECTOR.signature);
    expect(ours.body).toBe(VECTOR.payload);
  });

  it('verifies, with the secret with or without its whsec_ prefix, from text, bytes, a buffer or a Request', async () => {
    const bare = VECTOR.secret.slice('whsec_'.length);
    for (const secret of [VECTOR.secret, bare]) {
      expect(await verifyWebhook(VECTOR.payload, vectorHeaders(), secret, at(VECTOR.timestamp))).toEqual({
        test: 2432232314,
      });
    }
    const bytes = new TextEncoder().encode(VECTOR.payload);
    const request = new Request('http://app.test/hooks', { method: 'POST', body: VECTOR.payload });
    for (const body of [bytes, bytes.buffer, Buffer.from(VECTOR.payload), request]) {
      await expect(verifyWebhook(body, vectorHeaders(), VECTOR.secret, at(VECTOR.timestamp))).resolves.toBeTruthy();
    }
  });

  it('reads the headers in any case, from a Headers or a record of Node lists', async () => {
    const upper = { 'Webhook-Id': VECTOR.id, 'WEBHOOK-TIMESTAMP': String(VECTOR.timestamp) };
    const node = { ...upper, 'webhook-signature': ['v1,AAAA', VECTOR.signature] };
    await expect(verifyWebhook(VECTOR.payload, node, VECTOR.secret, at(VECTOR.timestamp))).resolves.toBeTruthy();
    const headers = new Headers(vectorHeaders());
    headers.append('webhook-signature', 'v1,AAAA');
    await expect(verifyWebhook(VECTOR.payload, headers, VECTOR.secret, at(VECTOR.timestamp))).resolves.toBeTruthy();
  });

  it('ignores other signature versions, and refuses a v1 that does not match', async () => {
    const v2 = VECTOR.signature.replace('v1,', 'v2,');
    expect(await codeOf(verifyWebhook(VECTOR.payload, vectorHeaders(v2), VECTOR.secret, at(VECTOR.timestamp)))).toBe(
      'WEBHOOK_SIGNATURE',
    );
    const both = `v1a,xyz ${VECTOR.signature}`;
    await expect(
      verifyWebhook(VECTOR.payload, vectorHeaders(both), VECTOR.secret, at(VECTOR.timestamp)),
    ).resolves.toBeTruthy();
  });
});

describe('interoperability with standardwebhooks', () => {
  it('each accepts the deliveries the other signs', async () => {
    const secret = newSecret();
    const event = templateUpdated();
    const now = Math.floor(Date.now() / 1000);
    const signed = await signTestWebhook(event, secret);
    expect(new Webhook(secret).verify(signed.body, signed.headers)).toEqual(event);
    // The write's request id, as the server sends it beside the signed body; none for an event without one.
    expect(signed.headers['storefront-request-id']).toBe(event.request_id);
    const { request_id: _, ...unnamed } = event;
    expect((await signTestWebhook(unnamed, secret)).headers['storefront-request-id']).toBeUndefined();

    const theirs = new Webhook(secret).sign('evt_2', new Date(now * 1000), signed.body);
    const headers = { 'webhook-id': 'evt_2', 'webhook-timestamp': String(now), 'webhook-signature': theirs };
    expect(await verifyWebhook(signed.body, headers, secret)).toEqual(event);
  });

  it('a rotation: two signatures, each secret alone verifies, and a list of secrets finds its own', async () => {
    const [old, next, other] = [newSecret(), newSecret(), newSecret()];
    const signed = await signTestWebhook(templateUpdated(), [old, next]);
    expect(signed.headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [old, next]) expect(new Webhook(secret).verify(signed.body, signed.headers)).toBeTruthy();
    await expect(verifyWebhook(signed.body, signed.headers, [other, next])).resolves.toBeTruthy();
    expect(await codeOf(verifyWebhook(signed.body, signed.headers, other))).toBe('WEBHOOK_SIGNATURE');

    // The library signs with each; joined, as the server sends them, we accept either secret. Over the delivery's
    // own id and timestamp: a clock read here may have passed into the next second.
    const id = signed.headers['webhook-id'];
    const sent = new Date(Number(signed.headers['webhook-timestamp']) * 1000);
    const joined = [old, next].map((secret) => new Webhook(secret).sign(id, sent, signed.body)).join(' ');
    const headers = { ...signed.headers, 'webhook-signature': joined };
    for (const secret of [old, next]) await expect(verifyWebhook(signed.body, headers, secret)).resolves.toBeTruthy();
  });

  it.each([
    ['stale', -301],
    ['future', 301],
  ])('both refuse a %s timestamp beyond 300 s, and accept one at 300 s', async (_, offset) => {
    const secret = newSecret();
    const now = 1_800_000_000;
    vi.useFakeTimers({ now: now * 1000, toFake: ['Date'] });
    const late = await signTestWebhook(templateUpdated(), secret, { timestamp: now + offset });
    expect(() => new Webhook(secret).verify(late.body, late.headers)).toThrow(/timestamp too/);
    expect(await codeOf(verifyWebhook(late.body, late.headers, secret))).toBe('WEBHOOK_TIMESTAMP');
    expect(await codeOf(verifyWebhook(late.body, late.headers, secret, { clock: Date }))).toBe('WEBHOOK_TIMESTAMP');
    // Either way, the message says how far off in seconds, never a negative age.
    await expect(verifyWebhook(late.body, late.headers, secret)).rejects.toThrow(
      `webhook-timestamp ${now + offset} is 301 s off, past the 300 s tolerated`,
    );

    const edge = await signTestWebhook(templateUpdated(), secret, { timestamp: now + Math.sign(offset) * 300 });
    expect(new Webhook(secret).verify(edge.body, edge.headers)).toBeTruthy();
    await expect(
      verifyWebhook(edge.body, edge.headers, secret, { clock: { now: () => now * 1000 } }),
    ).resolves.toBeTruthy();
    // A tolerance of our own: 60 s refuses what 300 s let through.
    expect(await codeOf(verifyWebhook(edge.body, edge.headers, secret, { tolerance: 60 }))).toBe('WEBHOOK_TIMESTAMP');
  });

  it('both refuse a body with one byte changed, and a timestamp that is no number', async () => {
    const secret = newSecret();
    const signed = await signTestWebhook(templateUpdated(), secret);
    const changed = signed.body.replace('layout.html', 'layout.htmm');
    expect(() => new Webhook(secret).verify(changed, signed.headers)).toThrow(/No matching signature/);
    expect(await codeOf(verifyWebhook(changed, signed.headers, secret))).toBe('WEBHOOK_SIGNATURE');
    const bytes = new TextEncoder().encode(signed.body);
    bytes[10]! ^= 1;
    expect(await codeOf(verifyWebhook(bytes, signed.headers, secret))).toBe('WEBHOOK_SIGNATURE');
    const odd = { ...signed.headers, 'webhook-timestamp': '1e9' };
    expect(() => new Webhook(secret).verify(signed.body, odd)).toThrow(/timestamp too old/);
    expect(await codeOf(verifyWebhook(signed.body, odd, secret))).toBe('WEBHOOK_TIMESTAMP');
    const word = { ...signed.headers, 'webhook-timestamp': 'abc' };
    expect(() => new Webhook(secret).verify(signed.body, word)).toThrow(/Invalid Signature Headers/);
    await expect(verifyWebhook(signed.body, word, secret)).rejects.toThrow(/^webhook-timestamp abc is not a number$/);
  });
});

describe('what is not a delivery', () => {
  it('says which headers a delivery needs when one is missing', async () => {
    const error = await verifyWebhook('{}', { 'webhook-id': 'evt_1' }, newSecret()).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'WEBHOOK_HEADERS',
      message: 'A webhook-id, webhook-timestamp or webhook-signature is missing',
    });
  });

  it('refuses a secret that is not base64 with a TypeError that does not quote it', async () => {
    const signed = await signTestWebhook(templateUpdated(), newSecret());
    const error = await verifyWebhook(signed.body, signed.headers, [newSecret(), 'whsec_not base64!']).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('Webhook secret #2 is not whsec_ followed by base64');
    await expect(verifyWebhook(signed.body, signed.headers, [])).rejects.toThrow(TypeError);
  });
});
