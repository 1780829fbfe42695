/** A node-redis client never connected, against the real Redis at 127.0.0.1:6379: the error says to connect it. */
import { TokenStoreError } from '@storefront-platform/sdk';
import { createRedisTokenStore, type RedisClient } from '@storefront-platform/sdk/redis';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';

describe('a node-redis client never connected', () => {
  it('fails with a TokenStoreError that says to call connect()', async () => {
    const client = createClient({ url: 'redis://127.0.0.1:6379' });
    const store = createRedisTokenStore({
      client: client as unknown as RedisClient,
      prefix: `unconnected-${process.pid}`,
    });
    const error = await store.get('user:ada').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenStoreError);
    expect((error as Error).message).toMatch(
      /The client is closed \(connect the node-redis client first: await client\.connect\(\)\)/,
    );
    // Once connected, the same store works.
    await client.connect();
    try {
      await expect(store.get('user:ada')).resolves.toBeUndefined();
    } finally {
      await client.quit();
    }
  });
});
