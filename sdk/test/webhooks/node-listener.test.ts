/**
 * `toNodeListener` behind a real `node:http` server and behind Express 5 on port 0: it reads the raw body itself,
 * takes the one `express.raw()` kept, and answers a body `express.json()` already parsed with the raw-body
 * message.
 */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, type EventOf, signTestWebhook, toNodeListener } from '@storefront-platform/sdk/webhooks';
import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newSecret, templateUpdated } from './events.js';

const secret = newSecret();
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function receiver() {
  const updated = vi.fn(async (_event: EventOf<'template.updated'>) => {});
  const onError = vi.fn();
  const handler = createWebhookHandler({ secrets: secret, on: { 'template.updated': updated }, onError });
  return { handler, updated, onError };
}

async function post(url: string, id = 'evt_1') {
  const { body, headers } = await signTestWebhook(templateUpdated(id), secret);
  return fetch(url, { method: 'POST', body, headers });
}

describe('toNodeListener', () => {
  it('behind node:http: reads the body, runs the handler once per webhook-id, answers 405 to a GET', async () => {
    const { handler, updated } = receiver();
    const origin = await listen(toNodeListener(handler));
    expect((await post(`${origin}/hooks`)).status).toBe(204);
    expect((await post(`${origin}/hooks`)).status).toBe(204);
    expect(updated).toHaveBeenCalledOnce();
    expect(updated.mock.calls[0]![0]).toEqual(templateUpdated());
    const get = await fetch(`${origin}/hooks`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const forged = await fetch(`${origin}/hooks`, { method: 'POST', body: '{}', headers: { 'webhook-id': 'x' } });
    expect(forged.status).toBe(400);
  });

  it('behind Express 5: with no body parser, after express.raw(), and refusing what express.json() parsed', async () => {
    const { handler, updated } = receiver();
    const onError = vi.fn();
    const app = express();
    app.post('/plain', toNodeListener(handler));
    app.post('/raw', express.raw({ type: 'application/json' }), toNodeListener(handler));
    app.post('/parsed', express.json(), toNodeListener(handler, { onError }));
    const origin = await listen(app);

    expect((await post(`${origin}/plain`, 'evt_1')).status).toBe(204);
    expect((await post(`${origin}/raw`, 'evt_2')).status).toBe(204);
    expect(updated.mock.calls.map(([event]) => event.id)).toEqual(['evt_1', 'evt_2']);

    const parsed = await post(`${origin}/parsed`, 'evt_3');
    expect(parsed.status).toBe(400);
    expect(await parsed.text()).toMatch(/express\.json\(\)\?\) ran before the webhook route: pass the raw body/);
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'WEBHOOK_BODY' });
    expect(updated).toHaveBeenCalledTimes(2);
  });

  it('hands a failure of its own to Express, and answers 500 without it', async () => {
    const broken = () => Promise.reject(new Error('boom'));
    const onError = vi.fn();
    const app = express();
    app.post('/hooks', toNodeListener(broken, { onError }));
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(503).send(`express saw ${error.message}`);
    });
    const viaExpress = await post(`${await listen(app)}/hooks`);
    expect([viaExpress.status, await viaExpress.text()]).toEqual([503, 'express saw boom']);
    expect((await post(`${await listen(toNodeListener(broken, { onError }))}/hooks`)).status).toBe(500);
    expect(onError).toHaveBeenCalledWith(new Error('boom'));
  });
});
