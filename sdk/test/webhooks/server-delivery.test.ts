/**
 * The receiver against the reference server's real deliveries (on every Node CI runs): an endpoint registered
 * through the SDK, a template changed through the SDK, the delivery verified with the endpoint's secret, and after
 * a rotation, verified with either secret during the overlap; the body re-serialised is refused as not raw. The
 * delivery names the write's request (`request_id`, `Storefront-Request-Id`).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, WebhookVerificationError } from '@storefront-platform/sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../helpers/reference-server.js';

let reference: ReferenceServer;
const received: { body: string; headers: IncomingHttpHeaders }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  reference = await startReferenceServer({ products: 1 });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await reference?.server.close();
  receiver.close();
});

describe('verifyWebhook on the reference server’s deliveries', () => {
  it('verifies a delivery, and both signatures of a rotation', async () => {
    const root = await reference.client().root();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    const endpoint = await root.follow('svc:create_webhook_endpoint', { url, events: ['template.updated'] });
    const secret = endpoint.properties.secret!;
    const theme = await root.embedded('shops')[0]!.follow('self').follow('svc:theme');
    const template = await theme.embedded('templates')[0]!.follow('self');
    const updated = await template.follow('svc:update_template', { body: `${template.properties.body}<!-- one -->` });
    await reference.server.webhooks.drain();
    const first = received.at(-1)!;
    const event = await verifyWebhook(first.body, first.headers, secret);
    expect(event.type).toBe('template.updated');
    // The write's request id: its answer's, in the signed body and beside it.
    const requestId = updated.response?.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(event.request_id).toBe(requestId);
    expect(first.headers['storefront-request-id']).toBe(requestId);
    if (event.type === 'template.updated') expect(event.data.file_name).toBe(template.properties.file_name);

    const reparsed = JSON.stringify(JSON.parse(first.body));
    await expect(verifyWebhook(reparsed, first.headers, secret)).rejects.toMatchObject({ code: 'WEBHOOK_BODY' });

    const rotated = await endpoint.follow('svc:rotate_webhook_secret');
    const next = rotated.properties.secret!;
    await template
      .follow('self')
      .then((t) => t.follow('svc:update_template', { body: `${t.properties.body}<!-- two -->` }));
    await reference.server.webhooks.drain();
    const second = received.at(-1)!;
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(2);
    await expect(verifyWebhook(second.body, second.headers, secret)).resolves.toMatchObject({
      type: 'template.updated',
    });
    await expect(verifyWebhook(second.body, second.headers, next)).resolves.toMatchObject({ type: 'template.updated' });
    const other = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const refused = await verifyWebhook(second.body, second.headers, other).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WebhookVerificationError);
    expect((refused as WebhookVerificationError).code).toBe('WEBHOOK_SIGNATURE');
  });
});
