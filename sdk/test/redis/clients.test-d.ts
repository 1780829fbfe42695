/** Each Redis client the stores accept type-checks as their `client`, as declared by its own package. */
import { createRedisCacheStore, createRedisTokenStore, type RedisClient } from '@storefront-platform/sdk/redis';
import type { Redis as IoRedis, Cluster as IoRedisCluster } from 'ioredis';
import type { Redis as IoRedis6, Cluster as IoRedis6Cluster } from 'ioredis6';
import type { RedisClientPoolType, RedisClientType, RedisClusterType } from 'redis';
import type { RedisClientType as Redis4ClientType, RedisClusterType as Redis4ClusterType } from 'redis4';
import { describe, expectTypeOf, it } from 'vitest';

describe('RedisClient', () => {
  it('takes node-redis 5 and 4 clients, a node-redis 5 pool and clusters of both', () => {
    expectTypeOf<RedisClientType>().toExtend<RedisClient>();
    expectTypeOf<RedisClientPoolType>().toExtend<RedisClient>();
    expectTypeOf<RedisClusterType>().toExtend<RedisClient>();
    expectTypeOf<Redis4ClientType>().toExtend<RedisClient>();
    expectTypeOf<Redis4ClusterType>().toExtend<RedisClient>();
  });

  it('takes ioredis 5 and 6 clients and clusters', () => {
    expectTypeOf<IoRedis>().toExtend<RedisClient>();
    expectTypeOf<IoRedisCluster>().toExtend<RedisClient>();
    expectTypeOf<IoRedis6>().toExtend<RedisClient>();
    expectTypeOf<IoRedis6Cluster>().toExtend<RedisClient>();
  });

  it('refuses what is not a client', () => {
    expectTypeOf<{ get(key: string): Promise<string | null> }>().not.toExtend<RedisClient>();
    // @ts-expect-error: a URL is not a client
    createRedisTokenStore({ client: 'redis://127.0.0.1:6379' });
    // @ts-expect-error: nor is a client's constructor
    createRedisCacheStore({ client: {} as typeof import('ioredis').Redis });
  });
});
