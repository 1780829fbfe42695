import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specialAddress } from '../../src/webhooks/targets.js';
import { type Doc, startThemeServer, type ThemeServer } from '../themes/fixture.js';
import { type Receiver, startReceiver } from './receiver.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const port = () => new URL(receiver.url).port;

async function addEndpoint(t: ThemeServer, url: string) {
  return t.call('/webhook_endpoints', { method: 'POST', json: { url, events: ['theme.updated'] } });
}

async function deliveriesOf(t: ThemeServer, endpoint: Doc): Promise<Doc[]> {
  await t.json(`/themes/1`, { method: 'PUT', json: { title: `At ${Date.now()}` }, status: 200 });
  await t.server.webhooks.drain();
  // The first attempt (newest first: a failed one is followed by the pending next).
  return ((await t.json(endpoint._links['svc:deliveries'].href))._embedded.items as Doc[]).filter(
    (d) => d.attempt === 1,
  );
}

describe('webhook targets of a server listening beyond loopback', () => {
  let t: ThemeServer;
  beforeAll(async () => {
    // Every interface, as a shared sandbox listens; the test itself still talks to it over loopback.
    t = await startThemeServer({ host: '0.0.0.0', webhooks: { allow: ['127.0.0.2'] } });
  });
  afterAll(() => t.server.close());

  it.each([
    `http://127.0.0.1:PORT/webhooks`,
    `http://10.1.2.3/webhooks`,
    `http://192.168.0.1/webhooks`,
    `http://169.254.169.254/latest/meta-data`,
    `http://[::1]:PORT/webhooks`,
    `http://[::ffff:127.0.0.1]:PORT/webhooks`,
    `http://localhost:PORT/webhooks`,
    `http://localhost.:PORT/webhooks`,
  ])('refuses %s when the endpoint is registered', async (template) => {
    const response = await addEndpoint(t, template.replace('PORT', port()));
    expect(response.status).toBe(422);
    const body = (await response.json()) as Doc;
    expect(body._embedded.errors[0].field).toBe('url');
    expect(body._embedded.errors[0].messages[0]).toMatch(/does not send webhooks to.*--webhooks-allow/);
  });

  it('refuses, when it connects, a name that resolves to a loopback or private address', async () => {
    const name = hostname();
    const { address } = await lookup(name);
    if (!specialAddress(address)) return; // This machine's name is public: nothing to show here.
    const response = await addEndpoint(t, `http://${name}:${port()}/webhooks`);
    expect(response.status).toBe(201);
    const endpoint = (await response.json()) as Doc;
    const before = receiver.received.length;
    const deliveries = await deliveriesOf(t, endpoint);
    expect(deliveries[0]).toMatchObject({ status: 'failed', response_status: null });
    expect(deliveries[0]!.error).toMatch(/resolving to a (loopback|private) address/);
    expect(receiver.received.length).toBe(before);
    await t.call(endpoint._links.self.href, { method: 'DELETE' });
  });

  it('delivers to a host allowed by name', async () => {
    const response = await addEndpoint(t, `http://127.0.0.2:${port()}/webhooks`);
    expect(response.status).toBe(201);
    const endpoint = (await response.json()) as Doc;
    const before = receiver.received.length;
    const deliveries = await deliveriesOf(t, endpoint);
    expect(deliveries[0]).toMatchObject({ status: 'succeeded', response_status: 204 });
    expect(receiver.received.length).toBe(before + 1);
    await t.call(endpoint._links.self.href, { method: 'DELETE' });
  });
});

describe('webhook targets of a server on loopback', () => {
  let t: ThemeServer;
  beforeAll(async () => {
    t = await startThemeServer();
  });
  afterAll(() => t.server.close());

  it('delivers to localhost, an app under development', async () => {
    const response = await addEndpoint(t, `http://localhost:${port()}/webhooks`);
    expect(response.status).toBe(201);
    const deliveries = await deliveriesOf(t, (await response.json()) as Doc);
    expect(deliveries[0]).toMatchObject({ status: 'succeeded', response_status: 204 });
  });
});
