/**
 * The Redis clients the SDK's stores accept, for the tests that run the stores (and the fleets on them) with
 * each: node-redis 5, 4 and 6 (the `redis4` and `redis6` aliases of the workspace) and ioredis 5 and 6 (`ioredis6`). Each is
 * loaded only when asked for, as its own users would load it.
 */
import type { RedisClient } from '@storefront-platform/sdk/redis';

export const REDIS_CLIENT_KINDS = ['redis', 'redis4', 'redis6', 'ioredis', 'ioredis6'] as const;
export type RedisClientKind = (typeof REDIS_CLIENT_KINDS)[number];

/** A connected client of one kind. */
export interface TestRedis {
  kind: RedisClientKind;
  /** What the stores are given. */
  client: RedisClient;
  /** Sends a command past the stores, in the client's own way, to see or set what they keep. */
  send(...args: string[]): Promise<unknown>;
  /** Drops the connection at once. */
  close(): Promise<void>;
}

export function isRedisClientKind(kind: string): kind is RedisClientKind {
  return (REDIS_CLIENT_KINDS as readonly string[]).includes(kind);
}

/**
 * Connects a client of `kind` to `url`, its errors ignored (the outage tests cause them). `reconnectMs`: the
 * pause between reconnection attempts, short where a test restarts the server and waits for the client.
 */
export async function connectRedis(kind: RedisClientKind, url: string, reconnectMs = 500): Promise<TestRedis> {
  return { kind, ...(await CONNECT[kind](url, reconnectMs)) };
}

type Connected = Omit<TestRedis, 'kind'>;

const CONNECT: Record<RedisClientKind, (url: string, reconnectMs: number) => Promise<Connected>> = {
  redis: async (url, reconnectMs) =>
    nodeRedis((await import('redis')).createClient({ url, socket: { reconnectStrategy: () => reconnectMs } })),
  redis6: async (url, reconnectMs) =>
    nodeRedis((await import('redis6')).createClient({ url, socket: { reconnectStrategy: () => reconnectMs } })),
  async redis4(url, reconnectMs) {
    const { createClient } = await import('redis4');
    const client = createClient({ url, socket: { reconnectStrategy: () => reconnectMs } }).on('error', () => {});
    await client.connect();
    // node-redis 4 has no destroy(): disconnect() is its way to drop the connection at once.
    return { client, send: (...args) => client.sendCommand(args), close: () => client.disconnect() };
  },
  ioredis: async (url, reconnectMs) => ioredis(new (await import('ioredis')).Redis(url, ioredisOptions(reconnectMs))),
  ioredis6: async (url, reconnectMs) => ioredis(new (await import('ioredis6')).Redis(url, ioredisOptions(reconnectMs))),
};

/** What the tests use of a node-redis 5 or 6 client (4 has no destroy(): see above). */
interface NodeRedis {
  on(event: 'error', listener: () => void): unknown;
  connect(): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  destroy(): void;
}

async function nodeRedis<C extends RedisClient & NodeRedis>(client: C): Promise<Connected> {
  client.on('error', () => {});
  await client.connect();
  return { client, send: (...args) => client.sendCommand(args), close: async () => client.destroy() };
}

const ioredisOptions = (reconnectMs: number) => ({ lazyConnect: true, retryStrategy: () => reconnectMs });

/** What the tests use of an ioredis 5 or 6 client. */
interface IoRedis {
  on(event: 'error', listener: () => void): unknown;
  connect(): Promise<void>;
  call(command: string, ...args: string[]): Promise<unknown>;
  disconnect(): void;
}

async function ioredis(client: IoRedis): Promise<Connected> {
  client.on('error', () => {});
  await client.connect();
  return { client, send: (command, ...args) => client.call(command!, ...args), close: async () => client.disconnect() };
}

/** A cluster client of `kind`'s package on the cluster that `url`'s node belongs to. */
export async function connectRedisCluster(kind: RedisClientKind, url: string): Promise<TestRedis> {
  return { kind, ...(await CONNECT_CLUSTER[kind](url)) };
}

const CONNECT_CLUSTER: Record<RedisClientKind, (url: string) => Promise<Connected>> = {
  async redis(url) {
    const { createCluster } = await import('redis');
    return nodeRedisCluster(createCluster({ rootNodes: [{ url }] }));
  },
  async redis4(url) {
    const { createCluster } = await import('redis4');
    return nodeRedisCluster(createCluster({ rootNodes: [{ url }] }));
  },
  async redis6(url) {
    const { createCluster } = await import('redis6');
    return nodeRedisCluster(createCluster({ rootNodes: [{ url }] }));
  },
  ioredis: async (url) => ioredis(new (await import('ioredis')).Cluster([url], { lazyConnect: true })),
  ioredis6: async (url) => ioredis(new (await import('ioredis6')).Cluster([url], { lazyConnect: true })),
};

/** What the tests use of a node-redis 4, 5 or 6 cluster client. */
interface NodeRedisCluster {
  on(event: 'error', listener: () => void): unknown;
  connect(): Promise<unknown>;
  sendCommand(firstKey: string | undefined, isReadonly: boolean, args: string[]): Promise<unknown>;
  getSlotMaster(slot: number): unknown;
  disconnect(): Promise<void>;
}

async function nodeRedisCluster(cluster: NodeRedisCluster): Promise<Connected> {
  cluster.on('error', () => {});
  await cluster.connect();
  return {
    client: cluster,
    // Routed by the first argument: enough for the key commands the tests send.
    send: (...args) => cluster.sendCommand(args[1], false, args),
    close: () => cluster.disconnect(),
  };
}
