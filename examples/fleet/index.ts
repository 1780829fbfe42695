/**
 * Several instances of an app acting on one authorization, as worker processes: with the Redis token store one
 * JWT bearer exchange serves them all, where without it the server refuses all but the first exchange of a token
 * and the other instances are locked out (see docs/sdk.md, "Running several instances").
 *
 *   REDIS_URL=redis://127.0.0.1:6379 npm run example -- fleet [--workers N] [--rounds N] [--redis-client NAME]
 *   npm run example -- fleet --no-redis [--workers N] [--rounds N]
 *
 * --redis-client: the Redis client the workers use, `redis` (node-redis 5, the default), `redis4` or `redis6` (node-redis 4, 6),
 * `ioredis` (ioredis 5) or `ioredis6` (ioredis 6); see ./redis.ts. --no-redis: no Redis, whatever REDIS_URL says.
 *
 * Start the server with short-lived tokens so that they expire during the run: `npm start -- --token-ttl 2`.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { clientCredentials } from '@storefront-platform/sdk';
import type { ExampleOptions } from '../shared/options.js';
import { REDIS_CLIENTS, type RedisClientName } from './redis.js';

/** Options of {@link main}. */
export interface FleetOptions extends ExampleOptions {
  /** Worker processes. Default 4. */
  workers?: number;
  /** Rounds of 20 concurrent reads per worker, a second apart. Default 3. */
  rounds?: number;
  /** Redis for the shared token store and cache; `undefined` runs the fleet without them. */
  redisUrl?: string;
  /** The workers' Redis client. Default `redis` (node-redis 5). */
  redisClient?: RedisClientName;
  /** Prefix of the Redis keys of this run. Default `fleet-example`. */
  prefix?: string;
}

/** What one worker reported. */
export interface WorkerReport {
  ok: number;
  errors: Record<string, number>;
  /** Tokens this worker obtained from the token endpoint. */
  exchanges: number;
}

export const description = 'several worker processes on one authorization, sharing tokens and cache through Redis';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function runWorker(env: Record<string, string>): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, WORKER], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as WorkerReport);
      else reject(new Error(`a worker exited with ${code}:\n${out}`));
    });
  });
}

export async function main(options: FleetOptions): Promise<WorkerReport[]> {
  const log = options.log ?? console.log;
  const workers = options.workers ?? 4;
  // The authorization the fleet shares: in a real app, a user's token from the authorization code flow.
  const auth = clientCredentials({ ...options, scope: 'admin' });
  const token = (await auth.credentials())!.token;
  log(
    `${workers} workers on one token, ${options.redisUrl ? `sharing it through ${options.redisUrl} (${options.redisClient ?? 'redis'})` : 'each on its own'}`,
  );
  const reports = await Promise.all(
    Array.from({ length: workers }, () =>
      runWorker({
        STOREFRONT_URL: options.authUrl,
        STOREFRONT_CLIENT_ID: options.clientId,
        STOREFRONT_CLIENT_SECRET: options.clientSecret,
        FLEET_TOKEN: token,
        FLEET_PREFIX: options.prefix ?? 'fleet-example',
        ROUNDS: String(options.rounds ?? 3),
        // Always set, so that a worker never falls back on what it inherits.
        FLEET_REDIS_URL: options.redisUrl ?? '',
        FLEET_REDIS_CLIENT: options.redisClient ?? 'redis',
      }),
    ),
  );
  for (const [i, report] of reports.entries()) {
    const failed = Object.entries(report.errors).map(([code, n]) => `${n} ${code}`);
    log(
      `worker ${i + 1}: ${report.ok} reads ok, ${report.exchanges} exchanges${failed.length ? `, failed: ${failed.join(', ')}` : ''}`,
    );
  }
  const exchanges = reports.reduce((n, r) => n + r.exchanges, 0);
  const failures = reports.reduce((n, r) => n + Object.values(r.errors).reduce((a, b) => a + b, 0), 0);
  log(`${exchanges} token exchanges in all, ${failures} failed reads`);
  return reports;
}

export function fromArgs(args: string[]): Partial<FleetOptions> {
  const { values } = parseArgs({
    args,
    options: {
      workers: { type: 'string' },
      rounds: { type: 'string' },
      'no-redis': { type: 'boolean' },
      'redis-client': { type: 'string' },
    },
  });
  const redisClient = values['redis-client'];
  if (redisClient !== undefined && !(REDIS_CLIENTS as readonly string[]).includes(redisClient)) {
    throw new Error(`--redis-client: one of ${REDIS_CLIENTS.join(', ')}, not "${redisClient}"`);
  }
  const redisUrl = values['no-redis'] ? undefined : process.env.REDIS_URL;
  if (!values['no-redis'] && !redisUrl) {
    throw new Error(
      'set REDIS_URL (e.g. redis://127.0.0.1:6379), or pass --no-redis to watch the fleet lock itself out',
    );
  }
  return {
    workers: values.workers === undefined ? undefined : Number(values.workers),
    rounds: values.rounds === undefined ? undefined : Number(values.rounds),
    redisUrl,
    redisClient: redisClient as RedisClientName | undefined,
  };
}
