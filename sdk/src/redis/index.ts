/**
 * @storefront-platform/sdk/redis: a shared token store, HTTP cache store and rate budget on Redis, for fleets of app
 * instances acting on one authorization, and a webhook dedupe store for fleets receiving events. Bring your own connected
 * client and pass it as `client`: node-redis 4, 5 or 6 (`npm i redis`; a client, a v5/v6 pool or a cluster) or ioredis 5
 * or 6 (`npm i ioredis`; a `Redis` or a `Cluster`). The stores tell which from its shape and import no Redis
 * package. Node only.
 *
 * @packageDocumentation
 */
export { createRedisCacheStore, type RedisCacheStoreOptions } from './redis-cache-store.js';
export type { RedisClient, RedisStoreOptions } from './redis-client.js';
export { createRedisDedupeStore } from './redis-dedupe-store.js';
export { createRedisRateBudget } from './redis-rate-budget.js';
export { createRedisTokenStore } from './redis-token-store.js';
