/**
 * One app instance of a fleet, for test/fleet: an SDK client on the `authorized` strategy with the token the
 * fleet shares, optionally a Redis token store and HTTP cache. Prints `ready`, waits for a line on stdin, runs
 * its job, prints one JSON line with what happened and exits.
 *
 * Environment: STOREFRONT_URL (origin), CLIENT_ID, CLIENT_SECRET, ACCESS_TOKEN, REDIS_URL (absent: no shared
 * stores), REDIS_CLIENT (which client: redis, redis4, ioredis or ioredis6; default redis) and PREFIX (its keys), JOB (`burst`: CONCURRENCY concurrent GETs of the root; `theme`: the demo shop's
 * theme, read once), LEASE_MS, EXCHANGE_DELAY_MS (each token request waits this long before it is sent, after
 * printing `exchanging`).
 */
import { createInterface } from 'node:readline';
import { authorized, type CacheStore, createClient, createHttpCache, type TokenStore } from '@storefront-platform/sdk';
import { createRedisCacheStore, createRedisTokenStore } from '@storefront-platform/sdk/redis';
import { connectRedis, isRedisClientKind } from '../support/redis-clients.js';

const env = process.env;
const origin = env.STOREFRONT_URL!;
const kind = env.REDIS_CLIENT ?? 'redis';
if (!isRedisClientKind(kind)) throw new Error(`REDIS_CLIENT: no client "${kind}"`);
const redis = env.REDIS_URL ? await connectRedis(kind, env.REDIS_URL) : undefined;
const tokenStore: TokenStore | undefined = redis && createRedisTokenStore({ client: redis.client, prefix: env.PREFIX });
const cacheStore: CacheStore | undefined = redis && createRedisCacheStore({ client: redis.client, prefix: env.PREFIX });
const delay = Number(env.EXCHANGE_DELAY_MS ?? 0);

const auth = authorized({
  authUrl: origin,
  clientId: env.CLIENT_ID!,
  clientSecret: env.CLIENT_SECRET!,
  accessToken: env.ACCESS_TOKEN!,
  tokenStore,
  refreshLease: env.LEASE_MS ? Number(env.LEASE_MS) : undefined,
  async fetch(input, init) {
    console.log('exchanging');
    await new Promise((resolve) => setTimeout(resolve, delay));
    return fetch(input, init);
  },
});
const client = createClient({
  baseUrl: `${origin}/v1`,
  auth,
  cache: cacheStore ? createHttpCache({ store: cacheStore }) : false,
  retry: false,
});

console.log('ready');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
lines.close();

const result: Record<string, unknown> = {};
if (env.JOB === 'theme') {
  const root = await client.root();
  const shop = await root.embedded('shops')[0]!.follow('self');
  const theme = await shop.follow('svc:theme');
  result.status = theme.response?.status;
  result.revalidated = theme.response?.revalidated;
} else {
  const outcomes = await Promise.allSettled(Array.from({ length: Number(env.CONCURRENCY ?? 50) }, () => client.root()));
  result.ok = outcomes.filter((o) => o.status === 'fulfilled').length;
  result.errors = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as { code?: string }).code] : []));
}
result.token = (await auth.credentials().catch(() => undefined))?.token;
console.log(JSON.stringify(result));
await redis?.close();
process.exit(0);
