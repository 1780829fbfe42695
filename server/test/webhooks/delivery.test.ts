import { verifyWebhook } from '@storefront-platform/sdk/webhooks';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { Doc } from '../themes/fixture.js';
import { useWebhookServer } from './webhook-server.js';

// Tokens outlive the days the clock is moved by.
const w = useWebhookServer({ tokenTtl: 30 * 86_400 });

async function addEndpoint(events?: string[]): Promise<Doc> {
  return w.t.json('/webhook_endpoints', {
    method: 'POST',
    json: { url: w.receiver.url, ...(events ? { events } : {}) },
    status: 201,
  });
}

async function productionTheme(shop = '1'): Promise<Doc> {
  return w.t.json(`/shops/${shop}/theme.json`, { status: 200 });
}

describe('events and webhook deliveries', () => {
  it('writes one event per write, delivered signed per Standard Webhooks', async () => {
    const endpoint = await addEndpoint(['template.created', 'template.updated']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await w.t.json(endpoint._links.self.href)).secret).toBeUndefined();
    const theme = await productionTheme();
    const created = await w.t.json(`/themes/${theme.id}/templates`, {
      method: 'POST',
      json: { file_name: 'partials/hook.html', body: '<p>hook</p>' },
      status: 201,
    });
    await w.t.server.webhooks.drain();
    expect(w.receiver.received).toHaveLength(1);
    const [delivery] = w.receiver.received;
    const verified = new Webhook(endpoint.secret).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    ) as Doc;
    expect(verified.type).toBe('template.created');
    expect(verified.data).toMatchObject({
      id: created.id,
      file_name: 'partials/hook.html',
      theme_id: String(theme.id),
    });
    expect(verified.data.body).toBeUndefined();
    expect(delivery!.headers['webhook-id']).toBe(verified.id);
    // The event's etag is the one a GET answers: a conditional GET of the subject is a 304.
    const subject = await w.t.call(verified._links['svc:subject'].href, {
      headers: { 'if-none-match': verified.data.etag },
    });
    expect(subject.status).toBe(304);
    const event = await w.t.json(`/events/${verified.id}.json`, { status: 200 });
    // The body is the event as GET answers it, and a newline.
    expect(delivery!.body).toBe(`${JSON.stringify(event)}\n`);
  });

  it('lists events oldest first from a cursor, and holds an empty page open while waiting', async () => {
    const first = await w.t.json('/events.json?per_page=100', { status: 200 });
    const last = first._embedded.items.at(-1) as Doc;
    const theme = await productionTheme();
    const waited = w.t.json(`/events.json?after=${last.id}&wait=5`, { status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await w.t.json(`/themes/${theme.id}`, { method: 'PUT', json: { title: 'Waited for' }, status: 200 });
    const page = await waited;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(page._embedded.items.map((item: Doc) => item.type)).toEqual(['theme.updated']);
    expect(page._links.next.href).toContain(`after=${page._embedded.items[0].id}`);
    expect((await w.t.call(`/events.json?after=evt_nothing`)).status).toBe(400);
  });

  it('signs each attempt with its time on the server’s clock: after the clock moved, a w.receiver verifies with it', async () => {
    const endpoint = await addEndpoint(['theme.updated']);
    const theme = await productionTheme();
    w.receiver.answer = () => ({ status: 500 });
    await w.t.json(`/themes/${theme.id}`, { method: 'PUT', json: { title: 'Signed in sandbox time' }, status: 200 });
    await w.t.server.webhooks.drain();
    w.receiver.answer = () => ({ status: 204 });
    w.now += 10 * 60_000; // the 5 s retry is due, and the server's clock is 10 minutes from the real one
    await w.t.server.webhooks.drain();
    const retry = w.receiver.received.at(-1)!;
    expect(Number(retry.headers['webhook-timestamp'])).toBe(Math.floor(w.now / 1000));
    // A receiver on the real clock refuses it as a replay (docs/server.md says so); one given the server's accepts.
    const onRealClock = await verifyWebhook(retry.body, retry.headers, endpoint.secret).catch((e) => e.code);
    expect(onRealClock).toBe('WEBHOOK_TIMESTAMP');
    const verified = await verifyWebhook(retry.body, retry.headers, endpoint.secret, { clock: { now: () => w.now } });
    expect(verified).toMatchObject({ type: 'theme.updated', data: { title: 'Signed in sandbox time' } });
    await w.t.call(endpoint._links.self.href, { method: 'DELETE' });
  });

  it('retries on the Standard schedule under a moved clock, then disables after 5 days of failures', async () => {
    const endpoint = await addEndpoint(['theme.updated']);
    const theme = await productionTheme();
    w.receiver.answer = () => ({ status: 500 });
    const wallStart = Date.now();
    await w.t.json(`/themes/${theme.id}`, { method: 'PUT', json: { title: 'Failing' }, status: 200 });
    await w.t.server.webhooks.drain();
    for (let day = 0; day < 6; day++) {
      for (let step = 0; step < 24 * 6; step++) {
        w.now += 10 * 60_000;
        await w.t.server.webhooks.drain();
      }
      await w.t.json(`/themes/${theme.id}`, { method: 'PUT', json: { title: `Failing ${day}` }, status: 200 });
      await w.t.server.webhooks.drain();
    }
    const after = await w.t.json(endpoint._links.self.href, { status: 200 });
    expect(after.status).toBe('disabled');
    expect(after.disabled_reason).toMatch(/5 days/);
    expect(Date.now() - wallStart).toBeLessThan(5000);
    const deliveries = await w.t.json(`${endpoint._links['svc:deliveries'].href}?per_page=100`, { status: 200 });
    const attempts = (deliveries._embedded.items as Doc[]).filter(
      (d) => d.event_id === JSON.parse(w.receiver.received[0]!.body).id,
    );
    expect(attempts.map((d) => d.attempt).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
