/**
 * Webhooks under MSW: the handlers' writes record their events and the mock delivers them, signed as the server
 * does, to a function the test registered or to a real local server (through `bypass`, past a strict
 * `onUnhandledRequest`), with `deliveries()` and `drain()` for assertions and the mock's clock for retries.
 */
import { bearer, createClient } from '@storefront-platform/sdk';
import { createHandlers, type MockWebhookDelivery, TriggerError } from '@storefront-platform/server/msw';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Doc } from '../themes/fixture.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { useMock } from './mocked.js';

// The real time (whole seconds): a verifier checks `webhook-timestamp`, the mock's clock, against its own.
const START = Math.floor(Date.now() / 1000) * 1000;
let now = START;
const clock = { now: () => now };
const APP = 'http://app.test/webhooks';

// Tokens outlive the days the clock is moved by.
const { mock, server, clientToken, call } = useMock({ clock, tokenTtl: 30 * 86_400 });
afterEach(() => {
  now = START;
});

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
afterEach(() => {
  receiver.received.length = 0;
  receiver.answer = () => ({ status: 204 });
});

async function api(path: string, token: string, init: RequestInit & { json?: unknown } = {}): Promise<Doc> {
  const { json, ...rest } = init;
  const response = await call(path.startsWith('http') ? path : `${mock.baseUrl}${path}`, token, {
    ...rest,
    ...(json === undefined ? {} : { body: JSON.stringify(json), headers: { 'content-type': 'application/json' } }),
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Doc>;
}

async function addEndpoint(token: string, url: string, events: string[] = ['*']): Promise<Doc> {
  return api('/webhook_endpoints', token, { method: 'POST', json: { url, events } });
}

/** The first template of shop 1's production theme. */
async function aTemplate(token: string): Promise<{ theme: Doc; template: Doc }> {
  const theme = await api('/shops/1/theme.json', token);
  return { theme, template: theme._embedded.templates[0] as Doc };
}

async function updateTemplate(token: string, body: string): Promise<Doc> {
  const { theme, template } = await aTemplate(token);
  return api(`/themes/${theme.id}/templates/${template.id}`, token, { method: 'PUT', json: { body } });
}

/** Receives into `received`, answering `status` (a function of the attempt's number by default 204). */
function recordingReceiver(answer: (request: Request) => Response = () => new Response(null, { status: 204 })) {
  const received: { request: Request; body: string; headers: Record<string, string> }[] = [];
  mock.webhooks.receive(APP, async (request) => {
    const body = await request.text();
    received.push({ request, body, headers: Object.fromEntries(request.headers) });
    return answer(request);
  });
  return received;
}

describe('webhooks in the mock', () => {
  test('a registered function gets a template.updated after a write through the SDK, signed per Standard Webhooks', async () => {
    const token = await clientToken();
    const client = createClient({ baseUrl: mock.baseUrl, auth: bearer(token) });
    const root = await client.root();
    const endpoint = await root.follow('svc:create_webhook_endpoint', { url: APP, events: ['template.updated'] });
    const secret = endpoint.properties.secret!;
    const received = recordingReceiver();

    const theme = await (await root.follow('svc:shop', { id: '1' })).follow('svc:theme');
    const template = theme.embedded('templates')[0]!;
    await template.follow('svc:update_template', { body: '<p>hooked</p>' });
    await mock.webhooks.drain();

    expect(received).toHaveLength(1);
    const [{ request, body, headers }] = received as [(typeof received)[number]];
    expect(request.method).toBe('POST');
    expect(request.url).toBe(APP);
    expect(headers['content-type']).toBe('application/json');
    const event = new Webhook(secret).verify(body, headers) as Doc;
    expect(event.type).toBe('template.updated');
    expect(event.data).toMatchObject({ id: template.properties.id, file_name: template.properties.file_name });
    expect(event.data.body).toBeUndefined();
    expect(headers['webhook-id']).toBe(event.id);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(START / 1000)));

    const deliveries = mock.webhooks.deliveries();
    expect(deliveries).toEqual([
      {
        id: expect.any(String),
        event_id: event.id,
        event_type: 'template.updated',
        endpoint_id: endpoint.properties.id,
        attempt: 1,
        status: 'succeeded',
        response_status: 204,
        duration_ms: expect.any(Number),
        error: null,
        next_attempt_on: null,
        attempted_on: new Date(START).toISOString(),
        created_on: new Date(START).toISOString(),
        event: JSON.parse(body),
      } satisfies MockWebhookDelivery,
    ]);
    // The API's record of the attempt says the same.
    const listed = await api(`/webhook_endpoints/${endpoint.properties.id}/deliveries`, token);
    const { _links, _class, ...fields } = listed._embedded.items[0] as Doc;
    const { event: _event, ...own } = deliveries[0]!;
    // The API leaves out a success's `error` (the loop records it as undefined, not null): deliveries() says null.
    expect({ error: null, ...fields }).toEqual(own);
  });

  test('delivers on its own, without drain, promptly after the write is answered', async () => {
    const token = await clientToken();
    await addEndpoint(token, APP, ['template.updated']);
    const latencies: number[] = [];
    let arrived: (at: number) => void = () => undefined;
    mock.webhooks.receive(APP, () => {
      arrived(performance.now());
      return new Response(null, { status: 204 });
    });
    for (let i = 0; i < 60; i++) {
      const at = new Promise<number>((resolve) => {
        arrived = resolve;
      });
      await updateTemplate(token, `<p>${i}</p>`);
      const answered = performance.now();
      latencies.push((await at) - answered);
    }
    await mock.webhooks.drain(); // the last attempt's outcome is recorded just after the receiver answered
    expect(mock.webhooks.deliveries()).toHaveLength(60);
    const sorted = latencies.slice(10).sort((a, b) => a - b); // the first ones warm up
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);
    console.info(`msw webhook delivery after the write's answer: p50 ${p(0.5)} ms, p95 ${p(0.95)} ms (n=50)`);
  });

  test('reaches a real local server through bypass, past onUnhandledRequest: error', async () => {
    const token = await clientToken();
    const endpoint = await addEndpoint(token, receiver.url, ['template.updated']);
    await updateTemplate(token, '<p>over the network</p>');
    await mock.webhooks.drain();
    expect(receiver.received).toHaveLength(1);
    const [arrived] = receiver.received as [(typeof receiver.received)[number]];
    const event = new Webhook(endpoint.secret).verify(arrived.body, arrived.headers as Record<string, string>) as Doc;
    expect(event.type).toBe('template.updated');
    expect(mock.webhooks.deliveries().map((d) => [d.status, d.response_status])).toEqual([['succeeded', 204]]);
  });

  test('follows no redirect: a 302 is a failed attempt, retried', async () => {
    const token = await clientToken();
    await addEndpoint(token, receiver.url, ['template.updated']);
    receiver.answer = () => ({ status: 302, headers: { location: `${receiver.url}/elsewhere` } });
    await updateTemplate(token, '<p>moved</p>');
    await mock.webhooks.drain();
    expect(receiver.received).toHaveLength(1);
    const [attempt] = mock.webhooks.deliveries();
    expect(attempt).toMatchObject({ status: 'failed', response_status: 302, attempt: 1 });
    expect(attempt!.next_attempt_on).not.toBeNull();
  });

  test('retries on the schedule under the moved clock, then disables after 5 days of failures, in well under a second', async () => {
    const token = await clientToken();
    const endpoint = await addEndpoint(token, APP, ['template.updated']);
    const received = recordingReceiver(() => new Response('nope', { status: 500 }));
    const wallStart = performance.now();
    await updateTemplate(token, '<p>failing</p>');
    await mock.webhooks.drain();
    // Six days in steps of ten minutes, a write a day: the retries fall due as the clock reaches them.
    for (let day = 0; day < 6; day++) {
      for (let step = 0; step < 24 * 6; step++) {
        now += 10 * 60_000;
        await mock.webhooks.drain();
      }
      await updateTemplate(token, `<p>failing ${day}</p>`);
      await mock.webhooks.drain();
    }
    const wall = performance.now() - wallStart;
    console.info(`msw webhook retry schedule to disabling (6 days moved): ${wall.toFixed(0)} ms wall`);

    const after = await api(`/webhook_endpoints/${endpoint.id}`, token);
    expect(after.status).toBe('disabled');
    expect(after.disabled_reason).toMatch(/5 days/);
    const deliveries = mock.webhooks.deliveries();
    const first = deliveries.filter((d) => d.event_id === deliveries[0]!.event_id);
    expect(first.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(first.every((d) => d.status === 'failed' && d.response_status === 500)).toBe(true);
    // Each retry staged when the one before failed, and sent at the first drain once due (steps of ten minutes):
    // on the Standard's schedule, with up to a tenth of jitter (5 s, 5 min, 30 min, …).
    for (const [i, retry] of first.slice(1).entries()) {
      const before = first[i]!;
      expect(retry.created_on).toBe(before.attempted_on);
      const late = Date.parse(retry.attempted_on!) - Date.parse(before.next_attempt_on!);
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(10 * 60_000);
    }
    expect(first.at(-1)!.next_attempt_on).toBeNull();
    // Every attempt sent reached the receiver, in the order of deliveries() (newest last); those left pending
    // when the endpoint was disabled are recorded as not sent.
    const sent = deliveries.filter((d) => d.response_status !== null);
    expect(sent.map((d) => d.event_id)).toEqual(received.map((r) => r.headers['webhook-id']));
    expect(deliveries.filter((d) => d.response_status === null).map((d) => [d.error, d.attempted_on])).toEqual([
      ['Not sent: the endpoint is disabled', null],
    ]);
  });

  test('410 Gone disables the endpoint at once', async () => {
    const token = await clientToken();
    const endpoint = await addEndpoint(token, APP, ['template.updated']);
    recordingReceiver(() => new Response(null, { status: 410 }));
    await updateTemplate(token, '<p>gone</p>');
    await mock.webhooks.drain();
    const after = await api(`/webhook_endpoints/${endpoint.id}`, token);
    expect(after.status).toBe('disabled');
    expect(after.disabled_reason).toMatch(/410/);
    expect(mock.webhooks.deliveries()).toMatchObject([
      { status: 'failed', response_status: 410, next_attempt_on: null },
    ]);
    await updateTemplate(token, '<p>gone again</p>');
    now += 86_400_000;
    await mock.webhooks.drain();
    expect(mock.webhooks.deliveries()).toHaveLength(1);
  });

  test('deliveries() and drain() are deterministic: due attempts made, later ones when the clock reaches them', async () => {
    const token = await clientToken();
    await addEndpoint(token, APP, ['template.updated']);
    let fail = true;
    recordingReceiver(() => new Response(null, { status: fail ? 503 : 200, headers: { 'retry-after': '60' } }));
    await updateTemplate(token, '<p>one</p>');
    await mock.webhooks.drain();
    fail = false;
    await updateTemplate(token, '<p>two</p>');
    await mock.webhooks.drain();
    const [one, two] = mock.webhooks.deliveries();
    expect([one?.status, two?.status]).toEqual(['failed', 'succeeded']);
    // Retry-After 60 s beats the schedule's 5 s.
    expect(Date.parse(one!.next_attempt_on!) - START).toBeGreaterThanOrEqual(60_000);
    now += 59_000;
    await mock.webhooks.drain();
    expect(mock.webhooks.deliveries()).toHaveLength(2);
    now += 1_000 + 6_000; // past any jitter
    await mock.webhooks.drain();
    const all = mock.webhooks.deliveries();
    expect(all.map((d) => [d.event.type === 'template.updated', d.attempt, d.status])).toEqual([
      [true, 1, 'failed'],
      [true, 1, 'succeeded'],
      [true, 2, 'succeeded'],
    ]);
    // Newest last, in the order made: the retry of the first event after the second event's attempt, staged at
    // the first's failure and sent when the clock reached it.
    expect(all[2]!.event_id).toBe(all[0]!.event_id);
    expect([all[2]!.created_on, all[2]!.attempted_on]).toEqual([
      new Date(START).toISOString(),
      new Date(START + 66_000).toISOString(),
    ]);
    expect(all[2]!.event).toEqual(all[0]!.event);
  });

  test('a receiver that throws or does not answer in time fails the attempt, with no answer recorded', async () => {
    const quick = createHandlers({
      origin: 'http://localhost:4999',
      seed: { products: 2, orders: 1 },
      clock,
      webhooks: { timeoutMs: 50 },
    });
    server.use(...quick.handlers);
    const tokenResponse = await quick.issueToken({ scope: 'admin' });
    const token = tokenResponse.accessToken;
    const post = (path: string, json: unknown, method = 'POST') =>
      call(`${quick.baseUrl}${path}`, token, {
        method,
        body: JSON.stringify(json),
        headers: { 'content-type': 'application/json' },
      }).then((r) => r.json() as Promise<Doc>);
    await post('/webhook_endpoints', { url: 'http://app.test/hangs', events: ['theme.updated'] });
    await post('/webhook_endpoints', { url: 'http://app.test/throws', events: ['theme.updated'] });
    quick.webhooks.receive('http://app.test/hangs', () => new Promise<Response>(() => undefined));
    quick.webhooks.receive('http://app.test/throws', () => {
      throw new Error('the handler broke');
    });
    const theme = (await call(`${quick.baseUrl}/shops/1/theme.json`, token).then((r) => r.json())) as Doc;
    await post(`/themes/${theme.id}`, { title: 'Slow' }, 'PUT');
    await quick.webhooks.drain();
    const errors = quick.webhooks
      .deliveries()
      .map((d) => [d.status, d.response_status, d.error])
      .sort();
    expect(errors).toEqual([
      ['failed', null, 'No answer within 0.05 s'],
      ['failed', null, 'the handler broke'],
    ]);
    quick.reset();
  });

  test('a ping and a resend through the API are delivered like any event', async () => {
    const token = await clientToken();
    const endpoint = await addEndpoint(token, APP, ['template.updated']);
    const received = recordingReceiver();
    const ping = await api(`/webhook_endpoints/${endpoint.id}/ping`, token, { method: 'POST' });
    await mock.webhooks.drain();
    const [pinged] = mock.webhooks.deliveries();
    expect(pinged).toMatchObject({ id: ping.id, event_type: 'ping', status: 'succeeded', attempt: 1 });
    const resent = await api(`/webhook_deliveries/${ping.id}/resend`, token, { method: 'POST' });
    await mock.webhooks.drain();
    const all = mock.webhooks.deliveries();
    expect(all.map((d) => [d.id, d.event_type, d.status])).toEqual([
      [ping.id, 'ping', 'succeeded'],
      [resent.id, 'ping', 'succeeded'],
    ]);
    // The same event, the same webhook-id: a receiver dedupes on it.
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([all[0]!.event_id, all[0]!.event_id]);
  });

  test("a resend the receiver acknowledges ends the original series' next attempt, listed as not sent", async () => {
    const token = await clientToken();
    const endpoint = await addEndpoint(token, APP, ['template.updated']);
    let up = false;
    const received = recordingReceiver(() => new Response(null, { status: up ? 204 : 500 }));
    const ping = await api(`/webhook_endpoints/${endpoint.id}/ping`, token, { method: 'POST' });
    await mock.webhooks.drain();
    up = true;
    const resent = await api(`/webhook_deliveries/${ping.id}/resend`, token, { method: 'POST' });
    await mock.webhooks.drain();
    now += 3_600_000;
    await mock.webhooks.drain();
    expect(received).toHaveLength(2);
    expect(mock.webhooks.deliveries().map((d) => [d.id === resent.id, d.attempt, d.status, d.error])).toEqual([
      [false, 1, 'failed', 'The endpoint answered 500'],
      // Recorded in the same write as the resend's success, and listed by id within it.
      [false, 2, 'failed', `Not sent: delivery ${resent.id} of this event succeeded`],
      [true, 1, 'succeeded', null],
    ]);
  });

  test('trigger() changes real state and its event is delivered; a field it does not know is an error', async () => {
    const token = await clientToken();
    await addEndpoint(token, APP, ['order.created']);
    const received = recordingReceiver();
    const shop = await api('/shops/1.json', token);
    const event = await mock.trigger('order.created', { shop: shop.id, set: { total: 0 } });
    await mock.webhooks.drain();
    expect(received).toHaveLength(1);
    expect(mock.webhooks.deliveries()).toMatchObject([{ event_type: 'order.created', event_id: event.id }]);
    const order = await api(event._links['svc:subject']!.href, token);
    expect(order.total).toBe(0);
    await expect(mock.trigger('order.created', { shop: shop.id, set: { nonsense: 1 } })).rejects.toThrow(TriggerError);
  });

  test('reset() forgets receivers and deliveries with the data', async () => {
    // Nothing listens on port 1: without a receiver, an attempt there is refused at once.
    const nowhere = 'http://127.0.0.1:1/webhooks';
    const token = await clientToken();
    await addEndpoint(token, nowhere, ['template.updated']);
    let calls = 0;
    mock.webhooks.receive(nowhere, () => {
      calls++;
      return new Response(null, { status: 200 });
    });
    await updateTemplate(token, '<p>before</p>');
    await mock.webhooks.drain();
    expect(mock.webhooks.deliveries()).toMatchObject([{ status: 'succeeded' }]);
    mock.reset();
    expect(mock.webhooks.deliveries()).toEqual([]);
    const fresh = await clientToken();
    await addEndpoint(fresh, nowhere, ['template.updated']);
    await updateTemplate(fresh, '<p>after</p>');
    await mock.webhooks.drain();
    expect(calls).toBe(1);
    expect(mock.webhooks.deliveries()).toMatchObject([{ status: 'failed', response_status: null, attempt: 1 }]);
  });
});
