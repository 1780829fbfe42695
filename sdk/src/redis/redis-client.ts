/**
 * What the Redis stores need of a client: one call that sends a command. node-redis (v4 and v5) clients have it
 * as `sendCommand`, so the stores work with the app's own client, whatever its options, and import no Redis
 * package themselves.
 */
export interface RedisClient {
  sendCommand(args: string[]): Promise<unknown>;
}

/** Options shared by the Redis stores. */
export interface RedisStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`); attach an `error` listener to it. */
  client: RedisClient;
  /** Prefix of every key the store writes, to keep apps and environments apart in one Redis. Default `storefront`. */
  prefix?: string;
  /**
   * Longest wait for one command, in ms. Default 1 000. node-redis queues commands while it reconnects: without a
   * limit, an outage would hold every request instead of failing it (tokens) or skipping the cache.
   */
  commandTimeout?: number;
}

/** Sends `args`, rejecting after `timeout` ms. */
export function command(client: RedisClient, args: string[], timeout: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis did not answer ${args[0]} within ${timeout} ms`)), timeout);
    client.sendCommand(args).then(
      (reply) => {
        clearTimeout(timer);
        resolve(reply);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
