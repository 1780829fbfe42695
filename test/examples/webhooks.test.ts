/**
 * The webhook receivers of examples/webhooks, served on port 0 (Express, Node's http) or called (fetch), each
 * given deliveries signed as the server signs them: a genuine one is handled once, a forged one refused.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signTestWebhook } from '@storefront-platform/sdk/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../examples/webhooks/express.js';
import { createReceiver as createFetchReceiver } from '../../examples/webhooks/fetch.js';
import { createReceiver as createNodeReceiver } from '../../examples/webhooks/node-http.js';
import { templateUpdated } from '../../sdk/test/webhooks/events.js';

const secret = `whsec_${btoa('0123456789abcdef0123456789abcdef')}`;
const event = templateUpdated();

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function serve(server: Server): Promise<string> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

/** The statuses of a genuine delivery sent twice and of one signed with another secret. */
async function exercise(send: (request: Request) => Promise<Response>): Promise<number[]> {
  const genuine = await signTestWebhook(event, secret);
  const forged = await signTestWebhook(event, `whsec_${btoa('another secret, 32 bytes long!!!')}`);
  const statuses: number[] = [];
  for (const { body, headers } of [genuine, genuine, forged]) {
    statuses.push((await send(new Request('http://x/webhooks', { method: 'POST', body, headers }))).status);
  }
  return statuses;
}

const over = (url: string) => (request: Request) =>
  fetch(url, { method: 'POST', body: request.body, headers: request.headers, duplex: 'half' } as RequestInit);

describe('examples/webhooks', () => {
  it('express: handles a delivery once, refuses a forged one with 401', async () => {
    const log: string[] = [];
    const url = await serve(createServer(createApp(secret, (line) => log.push(line))));
    expect(await exercise(over(url))).toEqual([204, 204, 401]);
    expect(log).toEqual(['layout.html changed in theme 3']);
  });

  it('node-http: verifies by hand (no dedupe there: both copies are handled)', async () => {
    const log: string[] = [];
    const url = await serve(createNodeReceiver(secret, (line) => log.push(line)));
    expect(await exercise(over(url))).toEqual([204, 204, 401]);
    expect(log).toHaveLength(2);
  });

  it('fetch: handles a delivery once, refuses a forged one, and knows no other path', async () => {
    const log: string[] = [];
    const receiver = createFetchReceiver(secret, (line) => log.push(line));
    expect(await exercise((request) => receiver.fetch(request))).toEqual([204, 204, 401]);
    expect(log).toEqual(['layout.html changed in theme 3']);
    expect((await receiver.fetch(new Request('http://x/other'))).status).toBe(404);
  });
});
