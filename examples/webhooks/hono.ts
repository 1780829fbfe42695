/** A receiver in a Hono app (any runtime Hono serves on): the handler takes Hono's raw `Request`. */
import { createWebhookHandler } from '@storefront-platform/sdk/webhooks';
import { Hono } from 'hono';

export function createApp(secret: string, log: (line: string) => void): Hono {
  const webhooks = createWebhookHandler({
    secrets: secret,
    on: { 'template.updated': async (event) => log(`${event.data.file_name} changed`) },
  });
  return new Hono().post('/webhooks', (c) => webhooks(c.req.raw));
}
