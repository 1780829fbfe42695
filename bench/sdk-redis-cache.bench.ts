/**
 * A cached GET through the Redis cache store against the in-memory store, in one run: the demo theme (19 KB)
 * read by clients of the reference server, one per store, alternating rounds; every read after the first is a
 * conditional GET answered 304 from the store. Twice: as the server sends it (a strong ETag), and through a
 * `fetch` that weakens the ETag (`W/"…"`), as a proxy that compresses (nginx's gzip) does: the store cannot take a
 * weak ETag for the version of a body. Then a third time, strong ETags, against a server with `--rate-limit` (a
 * quota no read reaches): the Redis client keeps its rate budget in the same Redis (`createRedisRateBudget`, one
 * script per request and one per answer), the memory client its in-memory budget, the default (issue 50).
 * Redis is Debian's redis-server on a free loopback port.
 * Pass: in each case, the Redis store costs ≤ 1.3× the memory store, as the median of the rounds' ratios (each round
 * reads through both stores in turns of ten reads, the first one alternating, so that a load that comes and goes on
 * the machine weighs on both sides of a ratio: on a loaded machine, two blocks of 100 reads each saw another load;
 * turns, not single reads, so that what a read leaves running, a rate budget's report to Redis, stays on its side).
 */
import { createClient as createRedis } from 'redis';
import { clientCredentials, createClient, createHttpCache } from '../sdk/src/index.js';
import { createRedisCacheStore, createRedisRateBudget } from '../sdk/src/redis/index.js';
import { createServer } from '../server/src/index.js';
import { REDIS_SERVER, startRedisServer } from '../test/support/redis-server.js';
import { median } from './stats.js';

const ROUNDS = 21;
const READS = 100;
/** Reads through one store before the other's turn. */
const TURN = 10;
const TARGET = 1.3;

if (!REDIS_SERVER.available()) {
  console.log('SKIP: no redis-server (apt-get install redis-server)');
  process.exit(0);
}
const redisServer = await startRedisServer();
const redis = await createRedis({ url: redisServer.url }).on('error', console.error).connect();
const server = await createServer({ port: 0, products: 50 });
const limited = await createServer({ port: 0, products: 50, rateLimit: '1000000000/60s' });
const authOf = (on: typeof server) => {
  const { clientId, clientSecret } = on.credentials!;
  return clientCredentials({ authUrl: on.origin, clientId, clientSecret, scope: 'admin' });
};

/** `fetch`, with every strong ETag of a response made weak (the server compares `If-None-Match` weakly). */
const weakening: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const etag = response.headers.get('etag');
  if (etag === null || etag.startsWith('W/')) return response;
  const headers = new Headers(response.headers);
  headers.set('etag', `W/${etag}`);
  const body = response.status === 304 ? null : response.body;
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
};

/** Each case: a `fetch` that changes answers or none, and whether the server limits the rate (and the SDK paces). */
const cases: Record<string, { fetch?: typeof fetch; paced: boolean }> = {
  'strong ETag': { paced: false },
  'weak ETag': { fetch: weakening, paced: false },
  'strong ETag, --rate-limit, rate budget in the same Redis': { paced: true },
};
type Client = ReturnType<typeof createClient>;
/** Commands the Redis stores sent: round trips, since a read awaits each before the next. */
let commands = 0;
const counted = {
  sendCommand(args: string[]) {
    commands++;
    return redis.sendCommand(args);
  },
};
const clientsOf = (name: string, { fetch, paced }: (typeof cases)[string]): Record<'memory' | 'redis', Client> => {
  const on = paced ? limited : server;
  const auth = authOf(on);
  return {
    memory: createClient({ baseUrl: on.baseUrl, auth, fetch, cache: createHttpCache(), retry: false }),
    redis: createClient({
      baseUrl: on.baseUrl,
      auth,
      fetch,
      cache: createHttpCache({ store: createRedisCacheStore({ client: counted, prefix: `bench ${name}` }) }),
      ...(paced ? { pacing: createRedisRateBudget({ client: counted, prefix: `bench ${name}` }) } : {}),
      retry: false,
    }),
  };
};

/** The theme's entity of `client`, whose `follow('self')` is the measured read. */
async function theme(client: Client) {
  const root = await client.root();
  const shop = await root.embedded('shops')[0]!.follow('self');
  return shop.follow('svc:theme');
}

let pass = true;
console.log(`cached GET of the theme (304 from the store), median of ${ROUNDS - 2} rounds × ${READS} reads`);
for (const [name, options] of Object.entries(cases)) {
  const clients = clientsOf(name, options);
  const themes = { memory: await theme(clients.memory), redis: await theme(clients.redis) };
  // Its `self` may be another URL than the one followed: read it once so that it is stored.
  await Promise.all([themes.memory.follow('self'), themes.redis.follow('self')]);
  const times: Record<keyof typeof clients, number[]> = { memory: [], redis: [] };
  commands = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const spent = { memory: 0, redis: 0 };
    for (let turn = 0; turn < READS / TURN; turn++) {
      for (const store of turn % 2 === 0 ? (['memory', 'redis'] as const) : (['redis', 'memory'] as const)) {
        const started = performance.now();
        for (let i = 0; i < TURN; i++) {
          const read = await themes[store].follow('self');
          if (!read.response?.revalidated) throw new Error(`${name}, ${store}: a read was not answered from the cache`);
        }
        spent[store] += performance.now() - started;
      }
    }
    for (const store of ['memory', 'redis'] as const) times[store].push(spent[store] / READS);
  }
  const memory = median(times.memory.slice(2));
  const viaRedis = median(times.redis.slice(2));
  const ratio = median(times.redis.slice(2).map((time, round) => time / times.memory[round + 2]!));
  pass &&= ratio <= TARGET;
  console.log(`  ${name}`);
  console.log(`    in-memory store  ${memory.toFixed(3)} ms`);
  console.log(
    `    Redis store      ${viaRedis.toFixed(3)} ms   ${ratio.toFixed(2)}× (median of the rounds' ratios; target ≤ ${TARGET}×)`,
  );
  console.log(`    Redis commands per read: ${commands / (ROUNDS * READS)}`);
}
console.log(pass ? 'PASS' : 'FAIL');
process.exitCode = pass ? 0 : 1;
redis.destroy();
await server.close();
await limited.close();
await redisServer.stop();
