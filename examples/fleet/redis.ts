/**
 * The fleet's connection to Redis, with the client the example was asked for: each kind the SDK's Redis stores
 * accept, created, connected and closed the way its own package wants.
 */
import type { RedisClient } from '@storefront-platform/sdk/redis';

/**
 * node-redis 5 (`redis`), 4 or 6 (`redis4`, `redis6`: aliases in this workspace), ioredis 5 (`ioredis`) or 6
 * (`ioredis6`).
 */
export const REDIS_CLIENTS = ['redis', 'redis4', 'redis6', 'ioredis', 'ioredis6'] as const;
export type RedisClientName = (typeof REDIS_CLIENTS)[number];

/** A connected client for the stores, and how to let it go once the pending replies are in. */
export interface FleetRedis {
  client: RedisClient;
  close(): Promise<unknown>;
}

const logError = (error: Error) => console.error(`redis: ${error.message}`);

export async function connectRedis(name: RedisClientName, url: string): Promise<FleetRedis> {
  switch (name) {
    case 'redis': {
      const { createClient } = await import('redis');
      const client = await createClient({ url }).on('error', logError).connect();
      return { client, close: () => client.close() };
    }
    case 'redis6': {
      const { createClient } = await import('redis6');
      const client = await createClient({ url }).on('error', logError).connect();
      return { client, close: () => client.close() };
    }
    case 'redis4': {
      const { createClient } = await import('redis4');
      const client = createClient({ url }).on('error', logError);
      await client.connect();
      // node-redis 4 has neither close() nor destroy(): quit() waits for the replies, then closes.
      return { client, close: () => client.quit() };
    }
    case 'ioredis': {
      // ioredis connects by itself and queues commands until it has.
      const { Redis } = await import('ioredis');
      const client = new Redis(url).on('error', logError);
      return { client, close: () => client.quit() };
    }
    case 'ioredis6': {
      const { Redis } = await import('ioredis6');
      const client = new Redis(url).on('error', logError);
      return { client, close: () => client.quit() };
    }
  }
}
