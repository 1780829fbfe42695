/**
 * An app that receives the sandbox's webhooks: `createWebhookHandler` of `@storefront-platform/sdk/webhooks` behind
 * Node's `http` (it verifies each delivery's Standard Webhooks signature, refuses stale ones, drops repeats of a
 * `webhook-id` and answers 2xx once the handler is done). It registers its endpoint through the SDK (the secret
 * is shown once), renames the theme, waits for that write's event, then deletes its endpoint.
 *
 *   npm run example -- webhooks-receiver [--port 3000]
 *
 * With `storefront-server listen --forward-to http://127.0.0.1:3000/webhooks --secret …` in place of the endpoint,
 * the same handler receives a shared sandbox's events without a tunnel (docs/server.md, "Webhooks").
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { createWebhookHandler, type EventOf, toNodeListener } from '@storefront-platform/sdk/webhooks';
import type { ExampleOptions } from '../shared/options.js';

export interface WebhooksReceiverOptions extends ExampleOptions {
  /** Port of the receiver. Default 0 (a free one). */
  port?: number;
}

export interface WebhooksReceiverResult {
  /** The events received and verified, in order. */
  received: { id: string; type: string }[];
}

export const description = 'an app receiving the sandbox’s webhooks, verified per Standard Webhooks';

export async function main(options: WebhooksReceiverOptions): Promise<WebhooksReceiverResult> {
  const log = options.log ?? console.log;
  const client = createClient({
    baseUrl: options.baseUrl,
    auth: clientCredentials({ ...options, scope: 'admin' }),
  });
  const root = await client.root();
  const result: WebhooksReceiverResult = { received: [] };
  let arrived: (event: EventOf<'theme.updated'>) => void = () => {};
  // The handler needs the endpoint's secret, shown when the endpoint is registered, which needs the address.
  let listener: ReturnType<typeof toNodeListener> | undefined;
  const receiver = createServer((req, res) => (listener ? void listener(req, res) : res.writeHead(503).end()));
  await new Promise<void>((resolve) => receiver.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  const endpoint = await root.follow('svc:create_webhook_endpoint', {
    url,
    events: ['theme.updated'],
    description: 'examples/webhooks-receiver',
  });
  try {
    const handler = createWebhookHandler({
      secrets: endpoint.properties.secret!,
      on: {
        'theme.updated': async (event) => {
          result.received.push({ id: event.id, type: event.type });
          log(`received ${event.type} ${event.id} (verified)`);
          arrived(event);
        },
      },
    });
    listener = toNodeListener(handler);
    log(`endpoint ${endpoint.properties.id} → ${url} (its secret is shown once: kept in memory)`);
    const shop = await root.embedded('shops')[0]!.follow('self');
    const theme = await shop.follow('svc:theme');
    const title = `Renamed at ${new Date().toISOString()}`;
    const event = new Promise<EventOf<'theme.updated'>>((resolve) => {
      arrived = (e) => {
        if (e.data.title === title) resolve(e);
      };
    });
    await theme.follow('svc:update_theme', { title });
    log(`renamed theme ${theme.properties.id}; waiting for its event`);
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('no webhook within 10 s')), 10_000).unref(),
    );
    const received = await Promise.race([event, timeout]);
    log(`theme ${received.data.id} is now "${received.data.title}"`);
    return result;
  } finally {
    await (await endpoint.follow('self')).follow('svc:delete_webhook_endpoint').catch(() => undefined);
    await new Promise((resolve) => receiver.close(resolve));
  }
}

export function fromArgs(args: string[]): { port?: number } {
  const { values } = parseArgs({ args, options: { port: { type: 'string' } }, strict: true });
  return values.port === undefined ? {} : { port: Number(values.port) };
}
