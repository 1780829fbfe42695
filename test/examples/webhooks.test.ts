/**
 * The webhook receivers of examples/webhooks (Express, Node's http, a fetch handler), each served on a port and
 * registered as an endpoint of a reference server: the server's real delivery of a template change is handled
 * once (a resend of it too, as the same `webhook-id`), and one signed with another secret is refused.
 */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import { clientCredentials, createClient, type WebhookEndpoint } from '@storefront-platform/sdk';
import { signTestWebhook, toNodeListener } from '@storefront-platform/sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../examples/webhooks/express.js';
import { createReceiver as createFetchReceiver } from '../../examples/webhooks/fetch.js';
import { createReceiver as createNodeReceiver } from '../../examples/webhooks/node-http.js';
import { freePort } from '../support/free-port.js';
import { type ExampleServer, startExampleServer } from './server.js';

let example: ExampleServer;
beforeAll(async () => {
  example = await startExampleServer();
});
afterAll(() => example?.server.close());

/**
 * An endpoint at a free port, then the receiver `make` builds with its secret listening there; a template change
 * and a resend of its delivery, both delivered; a forged delivery. Resolves with the forged one's status.
 */
async function exercise(make: (secret: string) => Server | RequestListener): Promise<number> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/webhooks`;
  const root = await createClient({
    baseUrl: example.server.baseUrl,
    auth: clientCredentials({ ...example.options([]), scope: 'admin' }),
  }).root();
  const endpoint: WebhookEndpoint = await root.follow('svc:create_webhook_endpoint', {
    url,
    events: ['template.updated'],
  });
  const made = make(endpoint.properties.secret!);
  const server = typeof made === 'function' ? createServer(made) : made;
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  try {
    const theme = await root.embedded('shops')[0]!.follow('self').follow('svc:theme');
    const layout = theme.embedded('templates').find((t) => t.properties.file_name === 'layout.html')!;
    const template = await layout.follow('self');
    await template.follow('svc:update_template', { body: `${template.properties.body}<!-- ${Date.now()} -->` });
    await example.server.webhooks.drain();
    const [delivery] = (await endpoint.follow('svc:deliveries')).pageItems;
    expect(delivery!.properties).toMatchObject({ status: 'succeeded', response_status: 204 });
    await delivery!.follow('svc:resend_event');
    await example.server.webhooks.drain();
    const forgedBody = '{"id":"evt_forged","type":"template.updated"}\n';
    const forged = await signTestWebhook(forgedBody, `whsec_${btoa('another secret, 32 bytes long!!!')}`, {
      id: 'evt_forged',
    });
    const answer = await fetch(url, { method: 'POST', body: forged.body, headers: forged.headers });
    return answer.status;
  } finally {
    await (await endpoint.follow('self')).follow('svc:delete_webhook_endpoint');
    await new Promise((done) => server.close(done));
  }
}

describe('examples/webhooks against the reference server’s deliveries', () => {
  it('express: handles the delivery once, drops its resend, refuses a forged one with 401', async () => {
    const log: string[] = [];
    expect(await exercise((secret) => createApp(secret, (line) => log.push(line)))).toBe(401);
    expect(log).toEqual(['layout.html changed in theme 1']);
  });

  it('node-http: verifies by hand (no dedupe there: the resend is handled too)', async () => {
    const log: string[] = [];
    expect(await exercise((secret) => createNodeReceiver(secret, (line) => log.push(line)))).toBe(401);
    expect(log).toEqual(['layout.html changed in theme 1', 'layout.html changed in theme 1']);
  });

  it('fetch: handles the delivery once, drops its resend, refuses a forged one, and knows no other path', async () => {
    const log: string[] = [];
    let receiver: ReturnType<typeof createFetchReceiver> | undefined;
    const status = await exercise((secret) => {
      receiver = createFetchReceiver(secret, (line) => log.push(line));
      return toNodeListener((request) => receiver!.fetch(request));
    });
    expect(status).toBe(401);
    expect(log).toEqual(['layout.html changed in theme 1']);
    expect((await receiver!.fetch(new Request('http://x/other'))).status).toBe(404);
  });
});
