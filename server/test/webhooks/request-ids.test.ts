/**
 * Webhook deliveries name the write that caused them, through a real server on port 0: the event's `request_id`
 * and each delivery's `Storefront-Request-Id` are the `X-Request-Id` of the API request whose write recorded the
 * event (the client's own when sane), the same on a retry and a resend; null and absent for a trigger. The
 * signature still verifies (the Standard's, over the body, which holds the id).
 */
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Doc } from '../themes/fixture.js';
import { useWebhookServer } from './webhook-server.js';

const w = useWebhookServer();
let endpoint: Doc;

beforeAll(async () => {
  endpoint = await w.t.json('/webhook_endpoints', { method: 'POST', json: { url: w.receiver.url }, status: 201 });
});

/** Creates a template in shop 1's production theme, sending `requestId` as `X-Request-Id` when given. */
async function createTemplate(fileName: string, requestId?: string): Promise<Response> {
  const theme = await w.t.json('/shops/1/theme.json', { status: 200 });
  return w.t.call(`/themes/${theme.id}/templates`, {
    method: 'POST',
    json: { file_name: fileName, body: '<p>id</p>' },
    ...(requestId === undefined ? {} : { headers: { 'x-request-id': requestId } }),
  });
}

/** The deliveries received since the test began, their bodies verified with the endpoint's secret. */
function verified(): { event: Doc; headers: Record<string, string> }[] {
  return w.receiver.received.map(({ body, headers }) => ({
    event: new Webhook(endpoint.secret).verify(body, headers as Record<string, string>) as Doc,
    headers: headers as Record<string, string>,
  }));
}

describe('the request id of the write, in its event and deliveries', () => {
  it("carries the client's own X-Request-Id, in the event, the delivery's body and its header", async () => {
    const created = await createTemplate('partials/own-id.html', 'app-write-1');
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe('app-write-1');
    await w.t.server.webhooks.drain();
    const [delivery, ...others] = verified();
    expect(others).toHaveLength(0);
    expect(delivery!.event.type).toBe('template.created');
    expect(delivery!.event.data.file_name).toBe('partials/own-id.html');
    expect(delivery!.event.request_id).toBe('app-write-1');
    expect(delivery!.headers['storefront-request-id']).toBe('app-write-1');
    // The delivery is a request of its own: it does not pose as the write by its X-Request-Id.
    expect(delivery!.headers['x-request-id']).toBeUndefined();
    const event = await w.t.json(`/events/${delivery!.event.id}.json`, { status: 200 });
    expect(event.request_id).toBe('app-write-1');
  });

  it('carries the id the server made when the client sent none, or one that is not sane', async () => {
    for (const [name, sent] of [
      ['partials/no-id.html', undefined],
      ['partials/bad-id.html', 'has space'],
    ] as const) {
      w.receiver.received.length = 0;
      const created = await createTemplate(name, sent);
      expect(created.status).toBe(201);
      const id = created.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await w.t.server.webhooks.drain();
      const [delivery] = verified();
      expect(delivery!.event.data.file_name).toBe(name);
      expect(delivery!.event.request_id).toBe(id);
      expect(delivery!.headers['storefront-request-id']).toBe(id);
    }
  });

  it("keeps the write's id on every retry and on a resend, not the resend's", async () => {
    w.receiver.answer = () => ({ status: 500 });
    await createTemplate('partials/retried.html', 'write-to-retry');
    await w.t.server.webhooks.drain();
    w.receiver.answer = () => ({ status: 204 });
    w.now += 60_000;
    await w.t.server.webhooks.drain();
    const attempts = verified();
    expect(attempts).toHaveLength(2);
    expect(attempts.map((a) => a.headers['storefront-request-id'])).toEqual(['write-to-retry', 'write-to-retry']);
    const eventId = attempts[0]!.event.id;
    const deliveries = await w.t.json(`${endpoint._links['svc:deliveries'].href}?per_page=100`, { status: 200 });
    const first = (deliveries._embedded.items as Doc[]).find((d) => d.event_id === eventId)!;
    const resent = await w.t.call(first._links['svc:resend_event'].href, {
      method: 'POST',
      headers: { 'x-request-id': 'the-resend' },
    });
    expect(resent.status).toBe(201);
    await w.t.server.webhooks.drain();
    const last = verified().at(-1)!;
    expect(last.event.id).toBe(eventId);
    expect(last.event.request_id).toBe('write-to-retry');
    expect(last.headers['storefront-request-id']).toBe('write-to-retry');
  });

  it('names the request that asked for a ping', async () => {
    const pinged = await w.t.call(endpoint._links['svc:ping_webhook_endpoint'].href, {
      method: 'POST',
      headers: { 'x-request-id': 'ping-1' },
    });
    expect(pinged.status).toBe(201);
    await w.t.server.webhooks.drain();
    const [delivery] = verified();
    expect(delivery!.event.type).toBe('ping');
    expect(delivery!.event.request_id).toBe('ping-1');
    expect(delivery!.headers['storefront-request-id']).toBe('ping-1');
  });

  it('is null, and the header absent, for an event no API request caused (a trigger)', async () => {
    const triggered = await w.t.server.trigger('order.created', { shop: '1' });
    expect(triggered.request_id).toBeNull();
    await w.t.server.webhooks.drain();
    const [delivery] = verified();
    expect(delivery!.event.id).toBe(triggered.id);
    expect(delivery!.event.request_id).toBeNull();
    expect(delivery!.headers['storefront-request-id']).toBeUndefined();
  });

  it("keeps the first request's id when an Idempotency-Key replays the write", async () => {
    const theme = await w.t.json('/shops/1/theme.json', { status: 200 });
    const post = (requestId: string) =>
      w.t.call(`/themes/${theme.id}/templates`, {
        method: 'POST',
        json: { file_name: 'partials/keyed.html', body: '<p>once</p>' },
        headers: { 'idempotency-key': 'key-of-the-write', 'x-request-id': requestId },
      });
    expect((await post('first-try')).status).toBe(201);
    const replayed = await post('second-try');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('x-request-id')).toBe('second-try');
    await w.t.server.webhooks.drain();
    const deliveries = verified();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.event.request_id).toBe('first-try');
  });
});
