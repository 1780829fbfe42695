/**
 * One instance of an app that receives webhooks, for test/fleet: `createWebhookHandler` behind Node's `http`, its
 * duplicates dropped through a Redis store that the fleet shares. Prints `listening <url>`, then `handled <id>`
 * for each event its handler runs for.
 *
 * Environment: WEBHOOK_SECRET, REDIS_URL, PREFIX (the dedupe keys').
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRedisDedupeStore } from '@storefront-platform/sdk/redis';
import { createWebhookHandler, toNodeListener } from '@storefront-platform/sdk/webhooks';
import { connectRedis } from '../support/redis-clients.js';

const env = process.env;
const redis = await connectRedis('redis', env.REDIS_URL!);
const handler = createWebhookHandler({
  secrets: env.WEBHOOK_SECRET!,
  dedupe: createRedisDedupeStore({ client: redis.client, prefix: env.PREFIX }),
  on: {
    '*': async (event) => {
      process.stdout.write(`handled ${event.id}\n`);
    },
  },
});
const server = createServer(toNodeListener(handler));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks\n`);
});
process.once('SIGTERM', () => {
  server.close();
  void redis.close().finally(() => process.exit(0));
});
