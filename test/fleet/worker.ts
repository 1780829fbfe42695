/**
 * One app instance of a fleet, for test/fleet: an SDK client on the `authorized` strategy with the token the
 * fleet shares (or on `clientCredentials`), optionally a Redis token store and HTTP cache. Prints `ready`; then, for
 * each of ROUNDS rounds, waits for a line on stdin, runs its job and prints one JSON line with what happened; exits.
 *
 * Environment: STOREFRONT_URL (origin), CLIENT_ID, CLIENT_SECRET, ACCESS_TOKEN, STRATEGY (`authorized`, the default,
 * or `client_credentials`), REDIS_URL (absent: no shared stores), REDIS_CLIENT (which client: redis, redis4, ioredis
 * or ioredis6; default redis) and PREFIX (its keys), JOB (`burst`: CONCURRENCY concurrent GETs of the root; `theme`:
 * the demo shop's theme, read once), ROUNDS (default 1), LEASE_MS, EXCHANGE_DELAY_MS (each token request waits this
 * long before it is sent, after printing `exchanging`), HOLD_AFTER_TOKEN (the first token response is held back:
 * `exchanged` is printed, and it is handed over after the next line on stdin).
 *
 * Each JSON line counts, besides the job's outcome, the token requests (`exchanges`), the API requests
 * (`requests`) and the calls of `onAuthorizationLost` (`lost`) so far.
 */
import { createInterface } from 'node:readline';
import {
  authorized,
  type CacheStore,
  clientCredentials,
  createClient,
  createHttpCache,
  type TokenStore,
} from '@storefront-platform/sdk';
import { createRedisCacheStore, createRedisTokenStore } from '@storefront-platform/sdk/redis';
import { connectRedis, isRedisClientKind } from '../support/redis-clients.js';

const env = process.env;
const origin = env.STOREFRONT_URL!;
const kind = env.REDIS_CLIENT ?? 'redis';
if (!isRedisClientKind(kind)) throw new Error(`REDIS_CLIENT: no client "${kind}"`);
const redis = env.REDIS_URL ? await connectRedis(kind, env.REDIS_URL) : undefined;
// COMMAND_TIMEOUT_MS: the stores' fence per command (the SDK's default, 1 s, when unset).
const commandTimeout = env.COMMAND_TIMEOUT_MS ? Number(env.COMMAND_TIMEOUT_MS) : undefined;
const tokenStore: TokenStore | undefined =
  redis && createRedisTokenStore({ client: redis.client, prefix: env.PREFIX, commandTimeout });
const cacheStore: CacheStore | undefined = redis && createRedisCacheStore({ client: redis.client, prefix: env.PREFIX });
const delay = Number(env.EXCHANGE_DELAY_MS ?? 0);

// stdin, line by line: the rounds' signals and the release of a held token response.
const lines = createInterface({ input: process.stdin });
const waiting: (() => void)[] = [];
let unread = 0;
lines.on('line', () => {
  const next = waiting.shift();
  if (next) next();
  else unread++;
});
const nextLine = () => {
  if (unread > 0) {
    unread--;
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => waiting.push(resolve));
};

const counts = { exchanges: 0, requests: 0, lost: 0 };
let hold = env.HOLD_AFTER_TOKEN === '1';
const endpoint = {
  authUrl: origin,
  clientId: env.CLIENT_ID!,
  clientSecret: env.CLIENT_SECRET!,
  tokenStore,
  refreshLease: env.LEASE_MS ? Number(env.LEASE_MS) : undefined,
  async fetch(input: RequestInfo | URL, init?: RequestInit) {
    counts.exchanges++;
    console.log('exchanging');
    await new Promise((resolve) => setTimeout(resolve, delay));
    const response = await fetch(input, init);
    if (hold) {
      hold = false;
      console.log('exchanged');
      await nextLine();
    }
    return response;
  },
};
const auth =
  env.STRATEGY === 'client_credentials'
    ? clientCredentials({ ...endpoint, scope: 'admin' })
    : authorized({
        ...endpoint,
        accessToken: env.ACCESS_TOKEN!,
        onAuthorizationLost: () => {
          counts.lost++;
          return undefined;
        },
      });
const client = createClient({
  baseUrl: `${origin}/v1`,
  auth,
  cache: cacheStore ? createHttpCache({ store: cacheStore }) : false,
  retry: false,
  on: { request: () => counts.requests++ },
});

console.log('ready');
for (let round = 0; round < Number(env.ROUNDS ?? 1); round++) {
  await nextLine();
  const result: Record<string, unknown> = {};
  if (env.JOB === 'theme') {
    const root = await client.root();
    const shop = await root.embedded('shops')[0]!.follow('self');
    const theme = await shop.follow('svc:theme');
    result.status = theme.response?.status;
    result.revalidated = theme.response?.revalidated;
  } else {
    const outcomes = await Promise.allSettled(
      Array.from({ length: Number(env.CONCURRENCY ?? 50) }, () => client.root()),
    );
    result.ok = outcomes.filter((o) => o.status === 'fulfilled').length;
    const reasons = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [o.reason as { code?: string; message?: string }] : [],
    );
    result.errors = reasons.map((reason) => reason.code);
    result.messages = reasons.map((reason) => `${reason.code}: ${reason.message}`);
  }
  result.token = (await auth.credentials().catch(() => undefined))?.token;
  console.log(JSON.stringify({ ...result, ...counts }));
}
lines.close();
await redis?.close();
process.exit(0);
