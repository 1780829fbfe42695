/**
 * A Redis client the stores can use: node-redis 4, 5 or 6 (`createClient`, or a v5/v6 `createClientPool`), a node-redis
 * cluster (`createCluster`), or an ioredis 5 or 6 `Redis` or `Cluster`. Structural, so that the stores import no
 * Redis package and take the app's own client whatever its options; which kind it is, the stores tell from its
 * shape when they are created (a value of none of these shapes is a `TypeError` there). Not supported: node-redis 4
 * in `legacyMode` (pass its `.v4`) and node-redis sentinels.
 */
export type RedisClient =
  /** node-redis 4, 5 or 6: a client, or a v5/v6 pool. */
  | { sendCommand(args: string[]): Promise<unknown> }
  /** A node-redis 4, 5 or 6 cluster: each command goes to the node of its key. */
  | {
      sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]): Promise<unknown>;
      getSlotMaster(slot: number): unknown;
    }
  /** ioredis 5 or 6, a `Redis` or a `Cluster`. */
  | { call(command: string, ...args: string[]): Promise<unknown> };

/** Options shared by the Redis stores. */
export interface RedisStoreOptions {
  /**
   * A connected client of the app's, of any kind {@link RedisClient} lists (node-redis:
   * `await createClient({ url }).connect()`; ioredis: `new Redis(url)`); attach an `error` listener to it.
   */
  client: RedisClient;
  /** Prefix of every key the store writes, to keep apps and environments apart in one Redis. Default `storefront`. */
  prefix?: string;
  /**
   * Longest wait for one command, in ms. Default 1 000. Both node-redis and ioredis queue commands while they
   * reconnect: without a limit, an outage would hold every request instead of failing it (tokens) or skipping the
   * cache.
   */
  commandTimeout?: number;
}
