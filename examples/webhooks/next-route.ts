/**
 * A Next.js route handler (app/webhooks/route.ts): Next.js hands it a standard `Request`, so the handler is
 * exported as `POST` as is, and needs no Next.js types.
 */
import { createWebhookHandler } from '@storefront-platform/sdk/webhooks';

export const POST = createWebhookHandler({
  secrets: process.env.STOREFRONT_WEBHOOK_SECRET ?? '',
  on: { 'template.updated': async (event) => console.log(`${event.data.file_name} changed`) },
});
