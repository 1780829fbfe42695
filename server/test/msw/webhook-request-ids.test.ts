/**
 * The mock's deliveries name the write that caused them, as the server's do: the event's `request_id` and the
 * `Storefront-Request-Id` header are the write's `X-Request-Id` (the client's own when it sent one), also in
 * `mock.webhooks.deliveries()`; null and absent for a trigger.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import type { Doc } from '../themes/fixture.js';
import { useMock } from './mocked.js';

const APP = 'http://app.test/webhooks';
const { mock, clientToken, call } = useMock();

async function json(path: string, token: string, init: RequestInit = {}): Promise<{ doc: Doc; response: Response }> {
  const response = await call(`${mock.baseUrl}${path}`, token, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return { doc: (await response.json()) as Doc, response };
}

/** Registers an endpoint for every type and a receiver of its deliveries; resolves with its secret. */
async function receiving(token: string) {
  const { doc: endpoint } = await json('/webhook_endpoints', token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: APP, events: ['*'] }),
  });
  const received: { event: Doc; headers: Record<string, string> }[] = [];
  mock.webhooks.receive(APP, async (request) => {
    const headers = Object.fromEntries(request.headers);
    received.push({ event: new Webhook(endpoint.secret).verify(await request.text(), headers) as Doc, headers });
    return new Response(null, { status: 204 });
  });
  return received;
}

describe('request ids in the mock’s webhooks', () => {
  test("a write's event and its delivery carry the write's request id", async () => {
    const token = await clientToken();
    const received = await receiving(token);
    const { doc: theme } = await json('/shops/1/theme.json', token);
    const template = theme._embedded.templates[0] as Doc;
    const { response } = await json(`/themes/${theme.id}/templates/${template.id}`, token, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-request-id': 'mock-write-7' },
      body: JSON.stringify({ body: '<p>named</p>' }),
    });
    expect(response.headers.get('x-request-id')).toBe('mock-write-7');
    await mock.webhooks.drain();
    expect(received).toHaveLength(1);
    expect(received[0]!.event).toMatchObject({ type: 'template.updated', request_id: 'mock-write-7' });
    expect(received[0]!.headers['storefront-request-id']).toBe('mock-write-7');
    const [delivery] = mock.webhooks.deliveries();
    expect(delivery!.event.request_id).toBe('mock-write-7');
    const { doc: event } = await json(`/events/${delivery!.event.id}.json`, token);
    expect(event.request_id).toBe('mock-write-7');

    // Without an id of its own, the one the mock made and answered with.
    const { response: unnamed } = await json(`/themes/${theme.id}`, token, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Renamed' }),
    });
    const made = unnamed.headers.get('x-request-id');
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    await mock.webhooks.drain();
    expect(received[1]!.event).toMatchObject({ type: 'theme.updated', request_id: made });
    expect(received[1]!.headers['storefront-request-id']).toBe(made);
  });

  test('a triggered event has none', async () => {
    const token = await clientToken();
    const received = await receiving(token);
    const triggered = await mock.trigger('product.updated', { shop: '1' });
    expect(triggered.request_id).toBeNull();
    await mock.webhooks.drain();
    expect(received).toHaveLength(1);
    expect(received[0]!.event.request_id).toBeNull();
    expect(received[0]!.headers['storefront-request-id']).toBeUndefined();
  });
});
