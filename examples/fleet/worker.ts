/**
 * One instance of the fleet example: an SDK client on the authorization the fleet shares, with the Redis token
 * store and HTTP cache on FLEET_REDIS_URL through the FLEET_REDIS_CLIENT client (or neither, with FLEET_REDIS_URL
 * empty, to show the lock-out). Makes ROUNDS rounds of CONCURRENCY concurrent reads, INTERVAL_MS apart, then
 * prints one JSON line: reads that worked, errors by code, and how many tokens this instance obtained.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { authorized, createClient, createHttpCache } from '@storefront-platform/sdk';
import { createRedisCacheStore, createRedisTokenStore } from '@storefront-platform/sdk/redis';
import { connectRedis, type RedisClientName } from './redis.js';

const env = process.env;
// Set by the fleet, not inherited: a REDIS_URL of the shell must not bring Redis into a --no-redis run.
const redis = env.FLEET_REDIS_URL
  ? await connectRedis((env.FLEET_REDIS_CLIENT ?? 'redis') as RedisClientName, env.FLEET_REDIS_URL)
  : undefined;
const prefix = env.FLEET_PREFIX ?? 'fleet-example';
let exchanges = 0;
const client = createClient({
  baseUrl: `${env.STOREFRONT_URL}/v1`,
  auth: authorized({
    authUrl: env.STOREFRONT_URL!,
    clientId: env.STOREFRONT_CLIENT_ID!,
    clientSecret: env.STOREFRONT_CLIENT_SECRET!,
    accessToken: env.FLEET_TOKEN!,
    tokenStore: redis && createRedisTokenStore({ client: redis.client, prefix }),
    onToken: () => {
      exchanges++;
    },
  }),
  cache: redis ? createHttpCache({ store: createRedisCacheStore({ client: redis.client, prefix }) }) : false,
});

let ok = 0;
const errors: Record<string, number> = {};
for (let round = 0; round < Number(env.ROUNDS ?? 3); round++) {
  if (round > 0) await sleep(Number(env.INTERVAL_MS ?? 1000));
  const reads = Array.from({ length: Number(env.CONCURRENCY ?? 20) }, () => client.root());
  for (const outcome of await Promise.allSettled(reads)) {
    if (outcome.status === 'fulfilled') ok++;
    else {
      const code = (outcome.reason as { code?: string }).code ?? 'UNKNOWN';
      errors[code] = (errors[code] ?? 0) + 1;
    }
  }
}
console.log(JSON.stringify({ ok, errors, exchanges }));
await redis?.close();
