/**
 * A cached GET through the Redis cache store against the in-memory store, in one run: the demo theme (19 KB)
 * read by two clients of the reference server, one per store, alternating rounds; every read after the first is
 * a conditional GET answered 304 from the store. Redis is Debian's redis-server on a free loopback port.
 * Pass: the Redis store's median costs ≤ 1.3× the memory store's.
 */
import { createClient as createRedis } from 'redis';
import { clientCredentials, createClient, createHttpCache } from '../sdk/src/index.js';
import { createRedisCacheStore } from '../sdk/src/redis/index.js';
import { createServer } from '../server/src/index.js';
import { haveRedisServer, startRedisServer } from '../test/support/redis-server.js';

const ROUNDS = 15;
const READS = 100;
const TARGET = 1.3;

if (!haveRedisServer()) {
  console.log('SKIP: no redis-server (apt-get install redis-server)');
  process.exit(0);
}
const redisServer = await startRedisServer();
const redis = await createRedis({ url: redisServer.url }).on('error', console.error).connect();
const server = await createServer({ port: 0, products: 50 });
const { clientId, clientSecret } = server.credentials!;
const auth = clientCredentials({ authUrl: server.origin, clientId, clientSecret, scope: 'admin' });

const clients = {
  memory: createClient({ baseUrl: server.baseUrl, auth, cache: createHttpCache(), retry: false }),
  redis: createClient({
    baseUrl: server.baseUrl,
    auth,
    cache: createHttpCache({ store: createRedisCacheStore({ client: redis, prefix: 'bench' }) }),
    retry: false,
  }),
};

/** The theme's entity of `client`, whose `follow('self')` is the measured read. */
async function theme(client: (typeof clients)['memory']) {
  const root = await client.root();
  const shop = await root.embedded('shops')[0]!.follow('self');
  return shop.follow('svc:theme');
}
const themes = { memory: await theme(clients.memory), redis: await theme(clients.redis) };
// Its `self` may be another URL than the one followed: read it once so that it is stored.
await Promise.all([themes.memory.follow('self'), themes.redis.follow('self')]);

const times: Record<keyof typeof clients, number[]> = { memory: [], redis: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const name of ['memory', 'redis'] as const) {
    const started = performance.now();
    for (let i = 0; i < READS; i++) {
      const read = await themes[name].follow('self');
      if (!read.response?.revalidated) throw new Error(`${name}: a read was not answered from the cache`);
    }
    times[name].push((performance.now() - started) / READS);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const memory = median(times.memory.slice(2));
const viaRedis = median(times.redis.slice(2));
const ratio = viaRedis / memory;
console.log(`cached GET of the theme (304 from the store), median of ${ROUNDS - 2} rounds × ${READS} reads`);
console.log(`  in-memory store  ${memory.toFixed(3)} ms`);
console.log(`  Redis store      ${viaRedis.toFixed(3)} ms   ${ratio.toFixed(2)}× (target ≤ ${TARGET}×)`);
console.log(ratio <= TARGET ? 'PASS' : 'FAIL');
process.exitCode = ratio <= TARGET ? 0 : 1;
redis.destroy();
await server.close();
await redisServer.stop();
