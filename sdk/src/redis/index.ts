/**
 * @storefront-platform/sdk/redis: a shared token store and HTTP cache store on Redis, for fleets of app instances acting
 * on one authorization. Bring node-redis (`npm i redis`, v4 or v5) and pass its connected client. Node only.
 *
 * @packageDocumentation
 */
export { createRedisCacheStore, type RedisCacheStoreOptions } from './redis-cache-store.js';
export type { RedisClient, RedisStoreOptions } from './redis-client.js';
export { createRedisTokenStore } from './redis-token-store.js';
