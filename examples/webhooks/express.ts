/**
 * A receiver in an Express app whose other routes parse JSON: the webhook route comes first and reads its raw
 * body itself (`toNodeListener`), so `express.json()` never sees it.
 */
import { createWebhookHandler, toNodeListener } from '@storefront-platform/sdk/webhooks';
import express from 'express';

export function createApp(secret: string, log: (line: string) => void): express.Express {
  const app = express();
  const webhooks = createWebhookHandler({
    secrets: secret,
    on: { 'template.updated': async (event) => log(`${event.data.file_name} changed in theme ${event.data.theme_id}`) },
  });
  app.post('/webhooks', toNodeListener(webhooks));
  app.use(express.json());
  return app;
}
