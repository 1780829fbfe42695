/**
 * A receiver for fetch-style runtimes: Cloudflare Workers, Bun, Deno (`export default { fetch }` is what each
 * serves). Every `template.updated` is logged; repeats are dropped in memory.
 */
import { createWebhookHandler } from '@storefront-platform/sdk/webhooks';

export function createReceiver(secret: string, log: (line: string) => void) {
  const webhooks = createWebhookHandler({
    secrets: secret,
    on: { 'template.updated': async (event) => log(`${event.data.file_name} changed in theme ${event.data.theme_id}`) },
  });
  return {
    fetch(request: Request): Promise<Response> {
      if (new URL(request.url).pathname === '/webhooks') return webhooks(request);
      return Promise.resolve(new Response('Not found', { status: 404 }));
    },
  };
}
