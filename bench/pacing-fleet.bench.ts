/**
 * The SDK's pacing against the reference server's `--rate-limit` (issue 50). The server (JSON files, in this
 * process) limits the demo app and user to {@link QUOTA} requests per {@link WINDOW_SECONDS} s. Then:
 * 1. a fleet of 4 SDK processes (children of this one), one `client_credentials` authorization, sharing one rate
 *    budget through Redis (`createRedisRateBudget`), together asking 3× the limit: each starts a GET of the theme
 *    at a fixed rate whether the last one is done or not, so that requests queue in the client as an app's would;
 * 2. one process alone with the default in-memory budget (no Redis), asking 3× the limit.
 * For `PACING_SECONDS` (default 60) each; then every request still waiting is cancelled. Counted by the children's
 * `fetch`: the 429s (the client retries them, so they are counted as answers, not as failed calls) and the 200s
 * answered in the run. Pass: 0 × 429 in each, and the fleet's 200s ≥ 90 % of what the limit allowed over the run:
 * the quota of each window the run met. Windows are aligned on the server's clock (this machine's) and every child
 * starts asking at the start of one, so a run of 60 s meets 12 windows of 5 s whole.
 */
import { spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient as createRedis } from 'redis';
import { clientCredentials, createClient } from '../sdk/src/index.js';
import { createRedisRateBudget } from '../sdk/src/redis/index.js';
import { createServer } from '../server/src/index.js';
import { REDIS_SERVER, startRedisServer } from '../test/support/redis-server.js';

const QUOTA = 100;
const WINDOW_SECONDS = 5;
const SECONDS = Number(process.env.PACING_SECONDS ?? 60);
const ASKED = 3;
const FLEET = 4;
const TARGET = 0.9;

/** What a child runs. */
interface Plan {
  origin: string;
  clientId: string;
  clientSecret: string;
  /** The shared budget's Redis; none: the default in-memory budget. */
  redisUrl?: string;
  /** Requests started per second by this process. */
  perSecond: number;
  /** Epoch ms when every child starts asking: a window's start, after their set-up. */
  startAt: number;
  seconds: number;
}

/** What a child counted. */
interface Counted {
  ok: number;
  tooMany: number;
  /** Calls that failed otherwise than by the cancellation at the end. */
  failed: number;
  cancelled: number;
}

async function child(plan: Plan): Promise<void> {
  const redis = plan.redisUrl
    ? await createRedis({ url: plan.redisUrl }).on('error', console.error).connect()
    : undefined;
  const counted: Counted = { ok: 0, tooMany: 0, failed: 0, cancelled: 0 };
  let measuring = false;
  const counting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (measuring && response.status === 429) counted.tooMany++;
    return response;
  };
  const client = createClient({
    baseUrl: `${plan.origin}/v1`,
    auth: clientCredentials({
      authUrl: plan.origin,
      clientId: plan.clientId,
      clientSecret: plan.clientSecret,
      scope: 'admin',
    }),
    fetch: counting,
    ...(redis ? { pacing: createRedisRateBudget({ client: redis, prefix: 'bench-pacing' }) } : {}),
  });
  const root = await client.root();
  const theme = await (await root.embedded('shops')[0]!.follow('self')).follow('svc:theme');
  const stop = new AbortController();
  // Every queued call listens to the one signal.
  setMaxListeners(0, stop.signal);
  const calls: Promise<void>[] = [];
  await new Promise((resolve) => setTimeout(resolve, plan.startAt - Date.now()));
  measuring = true;
  const end = plan.startAt + plan.seconds * 1000;
  const tick = setInterval(() => {
    calls.push(
      theme.follow('self', undefined, { signal: stop.signal }).then(
        () => {
          // Answered in the run: its windows, not the next one's, which a late timer could reach.
          if (Date.now() < end) counted.ok++;
        },
        () => {
          if (stop.signal.aborted) counted.cancelled++;
          else counted.failed++;
        },
      ),
    );
  }, 1000 / plan.perSecond);
  await new Promise((resolve) => setTimeout(resolve, end - Date.now()));
  clearInterval(tick);
  measuring = false;
  stop.abort();
  await Promise.all(calls);
  process.stdout.write(`${JSON.stringify(counted)}\n`);
  redis?.destroy();
}

const self = fileURLToPath(import.meta.url);

function runChild(plan: Plan): Promise<Counted> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, ['--import', 'tsx', self, '--child', JSON.stringify(plan)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    process_.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
    });
    process_.on('error', reject);
    process_.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Counted)
        : reject(new Error(`child exited ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  if (!REDIS_SERVER.available()) {
    console.log('SKIP: no redis-server (apt-get install redis-server)');
    return;
  }
  const redisServer = await startRedisServer();
  const dir = await mkdtemp(join(tmpdir(), 'storefront-bench-'));
  const server = await createServer({ port: 0, data: join(dir, 'db.json'), rateLimit: `${QUOTA}/${WINDOW_SECONDS}s` });
  const { clientId, clientSecret } = server.credentials!;
  const limitPerSecond = QUOTA / WINDOW_SECONDS;
  /** What the limit allows in a run that starts at a window's start: the quota of every window it meets. */
  const allowed = QUOTA * Math.ceil(SECONDS / WINDOW_SECONDS);
  console.log(
    `--rate-limit ${QUOTA}/${WINDOW_SECONDS}s (${limitPerSecond} req/s), GET of the theme asked at ${ASKED}× it ` +
      `(${ASKED * limitPerSecond} req/s), ${SECONDS} s per case`,
  );
  let pass = true;
  const plan = { origin: server.origin, clientId, clientSecret, seconds: SECONDS };
  /** The start of a window at least 3 s away: the children's set-up (a token, three reads) is done by then. */
  const nextWindow = () => Math.ceil((Date.now() + 3000) / (WINDOW_SECONDS * 1000)) * WINDOW_SECONDS * 1000;

  const startAt = nextWindow();
  const fleet = await Promise.all(
    Array.from({ length: FLEET }, () =>
      runChild({ ...plan, startAt, redisUrl: redisServer.url, perSecond: (ASKED * limitPerSecond) / FLEET }),
    ),
  );
  const sum = (key: keyof Counted) => fleet.reduce((total, counted) => total + counted[key], 0);
  const share = sum('ok') / allowed;
  const fleetOk = sum('tooMany') === 0 && sum('failed') === 0 && share >= TARGET;
  pass &&= fleetOk;
  console.log(
    `  ${FLEET} processes, one budget in Redis: ${sum('ok')} × 200 (${fleet.map((c) => c.ok).join(' + ')}) of ` +
      `${allowed} allowed: ${(100 * share).toFixed(1)} % (target ≥ ${TARGET * 100} %), ${sum('tooMany')} × 429 ` +
      `(target 0), ${sum('failed')} failed, ${sum('cancelled')} still waiting at the end: ${fleetOk ? 'PASS' : 'FAIL'}`,
  );

  const alone = await runChild({ ...plan, startAt: nextWindow(), perSecond: ASKED * limitPerSecond });
  const aloneOk = alone.tooMany === 0 && alone.failed === 0;
  pass &&= aloneOk;
  console.log(
    `  1 process, in-memory budget, no Redis: ${alone.ok} × 200 of ${allowed} allowed ` +
      `(${((100 * alone.ok) / allowed).toFixed(1)} %), ${alone.tooMany} × 429 (target 0), ${alone.failed} failed, ` +
      `${alone.cancelled} still waiting at the end: ${aloneOk ? 'PASS' : 'FAIL'}`,
  );
  console.log(pass ? 'PASS' : 'FAIL');
  process.exitCode = pass ? 0 : 1;
  await server.close();
  await rm(dir, { recursive: true, force: true });
  await redisServer.stop();
}

if (process.argv[2] === '--child') await child(JSON.parse(process.argv[3]!) as Plan);
else await main();
