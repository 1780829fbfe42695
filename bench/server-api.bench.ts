/**
 * Reference server throughput and list latency.
 *
 * 1. `GET /v1/shops/1/theme.json` (admin token, 14 templates) against our server on each store (JSON files and
 *    PostgreSQL), a bare Express 5 app and a bare `node:http` server that answer the same bytes and headers; then,
 *    with `Accept-Encoding: gzip`, ours against the bare Express app answering our gzipped bytes and headers (what
 *    serving a cached gzip costs at best). The load generator is this same file in a child process (`--load`), pinned to the other
 *    core when `taskset` exists, with keep-alive connections at a fixed concurrency for a fixed duration over
 *    loopback. Rounds alternate the targets; each target's best round counts. Two figures per target:
 *    requests per second and p99 as the client saw them, and the servers' CPU time per request (this process
 *    serves all of them and does nothing else meanwhile). On a machine shared with other work the client is
 *    often the bottleneck and rps then says little, so the pass criterion is on CPU time, i.e. the requests
 *    per second one core could serve: ours ≥ 1.5 × bare Express, identity and gzip, on both stores. Ours sends
 *    every header it always sends (`X-Request-Id` among them), and the bare servers the same bytes.
 * 2. Side by side on one core, in the same window (see {@link sideBySide}), server CPU per read of a server on
 *    PostgreSQL beside one on JSON files: within 1.3×.
 * 3. Side by side as in 2, a server with `--rate-limit` on (a quota no read reaches) beside one with it off, on
 *    each store: server CPU per read within 1.2× (issue 50). `SERVER_API_ONLY=rate-limit` runs this section alone.
 * 4. Pages of 30 products from a 100 000-product store, one request at a time over HTTP: the first request
 *    of each query (a cold list: filter and sort of every product) and the median over many pages.
 *    Pass: median < 10 ms.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer as createHttpServer, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createServer } from '../server/src/index.js';
import { startCli } from '../server/test/helpers/cli-process.js';
import { clientToken, tokenRequest } from '../server/test/helpers/test-server.js';
import { freshSchema } from '../test/support/postgres-server.js';
import { median, percentile } from './stats.js';

/** A server the load generator sends to: the URL of the GET and its request headers. */
interface LoadTarget {
  url: string;
  headers: Record<string, string>;
}

/** What the load generator runs: connection i sends to `targets[i % targets.length]`. */
interface LoadPlan {
  targets: LoadTarget[];
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}

interface LoadResult {
  /** Completed in the measured window. */
  requests: number;
  /** Completed in the measured window, per target of the plan. */
  byTarget: number[];
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

/** What every target here reads: the demo theme with its templates. */
const THEME = '/v1/shops/1/theme.json';
const CONCURRENCY = 32;
const WARMUP_MS = 1000;
const DURATION_MS = 4000;
const ROUNDS = 3;
/** Rounds of the side-by-side section, whose median counts: each measures both sides of a ratio in one window. */
const SIDE_BY_SIDE_ROUNDS = 5;

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Child process: `concurrency` keep-alive connections, each sending the next GET as soon as the last response is
 * whole. Prints `measuring` when the warm-up ends and the {@link LoadResult} as JSON when done, each on a line, so
 * that the parent can time the window. Written on `node:net` with the request's bytes built once and responses
 * framed by their Content-Length (every target here sends one), as wrk or autocannon do: node:http's client costs
 * more per request than the servers measured, and a load generator slower than the server leaves it idle between
 * requests, each woken alone, so that its CPU per request counted wake-ups rather than the work of a read.
 */
async function generateLoad(plan: LoadPlan): Promise<void> {
  const requests = plan.targets.map(({ url, headers }) => {
    const target = new URL(url);
    const lines = [`GET ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    return { target, bytes: Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1') };
  });
  const start = performance.now();
  const measureFrom = start + plan.warmupMs;
  const end = measureFrom + plan.durationMs;
  const latencies: number[] = [];
  const byTarget = requests.map(() => 0);
  let failures = 0;
  const loop = (connection: number) =>
    new Promise<void>((resolve, reject) => {
      const index = connection % requests.length;
      const { target, bytes: requestBytes } = requests[index]!;
      const socket = connect(Number(target.port), target.hostname);
      socket.setNoDelay(true);
      let pending: Buffer = Buffer.alloc(0);
      let bodyLeft = -1;
      let status = 0;
      let sent = 0;
      const send = () => {
        sent = performance.now();
        socket.write(requestBytes);
      };
      const done = () => {
        if (sent >= measureFrom) {
          if (status === 200) {
            latencies.push(performance.now() - sent);
            byTarget[index]!++;
          } else failures++;
        }
        if (performance.now() >= end) {
          socket.end();
          resolve();
          return false;
        }
        send();
        return true;
      };
      socket.on('connect', send);
      socket.on('error', reject);
      socket.on('close', () => reject(new Error('the server closed a connection')));
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        for (;;) {
          if (bodyLeft < 0) {
            const headEnd = pending.indexOf(HEADER_END);
            if (headEnd < 0) return;
            const head = pending.toString('latin1', 0, headEnd);
            status = Number(head.slice(9, 12));
            const length = /\r\ncontent-length: *(\d+)/i.exec(head);
            if (!length) return reject(new Error(`a response without Content-Length: ${head.slice(0, 300)}`));
            bodyLeft = Number(length[1]);
            pending = pending.subarray(headEnd + 4);
          }
          if (pending.length < bodyLeft) {
            bodyLeft -= pending.length;
            pending = Buffer.alloc(0);
            return;
          }
          pending = pending.subarray(bodyLeft);
          bodyLeft = -1;
          if (!done()) return;
        }
      });
    });
  setTimeout(() => process.stdout.write('measuring\n'), plan.warmupMs);
  await Promise.all(Array.from({ length: plan.concurrency }, (_, connection) => loop(connection)));
  latencies.sort((a, b) => a - b);
  const result: LoadResult = {
    requests: latencies.length,
    byTarget,
    rps: latencies.length / (plan.durationMs / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

const self = fileURLToPath(import.meta.url);

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A load run's client-side figures and the servers' CPU time in its measured window. */
interface Measured extends LoadResult {
  /** All the servers' CPU time per request, µs. */
  cpuPerRequest: number;
  /** CPU time used, µs, per group of servers that `runLoad`'s `cpu` reads. */
  cpuUsed: number[];
}

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * Runs the load generator in its own process (on CPU 1 when pinning works) and returns its figures. `cpu`: the
 * CPU time so far, µs, of each group of servers (default: one group, this process).
 */
function runLoad(plan: LoadPlan, pin: boolean, cpu: () => number[] = () => [cpuMicros()]): Promise<Measured> {
  const node = [process.execPath, '--import', 'tsx', self, '--load', JSON.stringify(plan)];
  const [command, ...args] = pin ? ['taskset', '-c', '1', ...node] : node;
  return new Promise((resolve, reject) => {
    const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let cpuFrom: number[] | undefined;
    let cpuTo: number[] | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      if (!cpuFrom && out.includes('measuring\n')) cpuFrom = cpu();
      if (!cpuTo && out.endsWith('}\n')) cpuTo = cpu();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0 || !cpuFrom || !cpuTo) return reject(new Error(`load generator exited with ${code}`));
      const result = JSON.parse(out.slice(out.indexOf('\n') + 1)) as LoadResult;
      const cpuUsed = cpuTo.map((to, group) => to - cpuFrom![group]!);
      const total = cpuUsed.reduce((sum, used) => sum + used, 0);
      resolve({ ...result, cpuPerRequest: total / result.requests, cpuUsed });
    });
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** A captured response: its bytes and headers, minus those each server adds itself. */
interface Captured {
  body: Buffer;
  headers: Record<string, string>;
}

const ADDED_BY_SERVER = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** What the bare servers send: our response's bytes (undecoded) and headers for these request headers. */
function captureResponse(url: string, headers: Record<string, string>): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}`));
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (!ADDED_BY_SERVER.has(name) && typeof value === 'string') kept[name] = value;
        }
        resolve({ body: Buffer.concat(chunks), headers: kept });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function throughput(pin: boolean): Promise<void> {
  // The same seed on each store: the JSON files and PostgreSQL.
  const jsonDir = await mkdtemp(join(tmpdir(), 'storefront-bench-'));
  const onJson = await createServer({ port: 0, data: join(jsonDir, 'db.json') });
  const schema = await freshSchema();
  const onPostgres = await createServer({ port: 0, store: schema.url });
  const jsonToken = { authorization: `Bearer ${await clientToken(onJson)}` };
  const pgToken = { authorization: `Bearer ${await clientToken(onPostgres)}` };
  const gzip = { 'accept-encoding': 'gzip' };
  const plain = await captureResponse(`${onJson.url}${THEME}`, jsonToken);
  const gzipped = await captureResponse(`${onJson.url}${THEME}`, { ...jsonToken, ...gzip });
  if (gzipped.headers['content-encoding'] !== 'gzip') throw new Error('theme.json was not gzipped');
  const templates = (JSON.parse(plain.body.toString()) as { _embedded: { templates: unknown[] } })._embedded.templates;

  const expressApp = ({ body, headers }: Captured) => {
    const app = express();
    app.disable('x-powered-by');
    app.disable('etag');
    app.get(THEME, (_req, res) => {
      res.status(200).set(headers).end(body);
    });
    return createHttpServer(app);
  };
  const bare = {
    express: expressApp(plain),
    'node:http': createHttpServer((_req, res) => {
      res.writeHead(200, plain.headers);
      res.end(plain.body);
    }),
    'express gzip': expressApp(gzipped),
  };
  const origins: Record<string, string> = {};
  for (const [name, http] of Object.entries(bare)) origins[name] = `http://127.0.0.1:${await listen(http)}`;
  const targets: Record<string, { origin: string; headers: Record<string, string> }> = {
    'ours json': { origin: onJson.url, headers: jsonToken },
    'ours pg': { origin: onPostgres.url, headers: pgToken },
    express: { origin: origins.express!, headers: jsonToken },
    'node:http': { origin: origins['node:http']!, headers: jsonToken },
    'ours json gzip': { origin: onJson.url, headers: { ...jsonToken, ...gzip } },
    'ours pg gzip': { origin: onPostgres.url, headers: { ...pgToken, ...gzip } },
    'express gzip': { origin: origins['express gzip']!, headers: { ...jsonToken, ...gzip } },
  };

  console.log(
    `GET ${THEME}: ${plain.body.length.toLocaleString('en')} bytes (${gzipped.body.length.toLocaleString('en')} gzipped), ` +
      `${templates.length} templates; ${CONCURRENCY} connections, ` +
      `${DURATION_MS / 1000} s per round after ${WARMUP_MS / 1000} s warm-up, ${ROUNDS} rounds, ` +
      `load generator ${pin ? 'pinned to CPU 1, servers to CPU 0' : 'not pinned (no taskset)'}`,
  );
  const best: Record<string, Measured> = {};
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, { origin, headers }] of Object.entries(targets)) {
      const result = await runLoad(
        {
          targets: [{ url: `${origin}${THEME}`, headers }],
          concurrency: CONCURRENCY,
          warmupMs: WARMUP_MS,
          durationMs: DURATION_MS,
        },
        pin,
      );
      if (result.failures) throw new Error(`${name}: ${result.failures} requests failed`);
      console.log(
        `  round ${round} ${name.padEnd(14)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(2)} ms  ` +
          `p99 ${result.p99.toFixed(2)} ms  server CPU ${result.cpuPerRequest.toFixed(1)} µs/req`,
      );
      if (!best[name] || result.cpuPerRequest < best[name].cpuPerRequest) best[name] = result;
    }
  }
  await onJson.close();
  await onPostgres.close();
  await rm(jsonDir, { recursive: true, force: true });
  await schema.drop();
  for (const http of Object.values(bare)) await new Promise((resolve) => http.close(resolve));

  const capacity = (result: Measured) => 1e6 / result.cpuPerRequest;
  console.log('best round per target (least server CPU per request), each against bare Express sending its bytes:');
  let ok = true;
  for (const [name, result] of Object.entries(best)) {
    const against = name.endsWith('gzip') ? 'express gzip' : 'express';
    const ratio = capacity(result) / capacity(best[against]!);
    if (name.startsWith('ours')) ok &&= ratio >= 1.5;
    console.log(
      `  ${name.padEnd(14)} ${capacity(result).toFixed(0).padStart(6)} req/s per core  ` +
        `(client saw ${result.rps.toFixed(0)} req/s, p99 ${result.p99.toFixed(2)} ms)  ` +
        `${ratio.toFixed(2)}× ${against} per core, ${(result.rps / best[against]!.rps).toFixed(2)}× its client rps`,
    );
  }
  console.log(
    `ours / bare Express per core, identity and gzip, both stores (need ≥ 1.50 each): ${ok ? 'PASS' : 'FAIL'}`,
  );
  if (!ok) process.exitCode = 1;
}

/** CPU time (µs) used so far by the processes `pids`, from /proc (user + system, in clock ticks of 10 ms). */
function processCpuMicros(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      // Its time would leave the window's count: no figure rather than a wrong one.
      throw new Error(`server process ${pid} exited during the measurement`);
    }
    const fields = stat.split(') ')[1]!.split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10_000;
}

/** A started server: where to read, and how to stop it. */
interface Started {
  target: LoadTarget;
  pid: number;
  stop(): Promise<unknown>;
}

const DEMO = { clientId: 'bench-stores', clientSecret: 'bench-stores-secret-0123456789' };

/** `storefront-server` on a PostgreSQL schema (its URL) or on JSON files (a folder), with `args` besides. */
async function startOurs(store: { url: string } | { dir: string }, args: string[] = []): Promise<Started> {
  const cli = startCli([
    ...('dir' in store ? ['--data', join(store.dir, 'db.json')] : ['--store', store.url]),
    ...args,
    '--port',
    '0',
    '--quiet',
    '--demo-client-id',
    DEMO.clientId,
    '--demo-client-secret',
    DEMO.clientSecret,
  ]);
  const origin = (await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  const response = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, DEMO);
  const { access_token: token } = (await response.json()) as { access_token: string };
  const stop = () => {
    cli.child.kill('SIGTERM');
    return cli.exited;
  };
  return {
    target: { url: `${origin}${THEME}`, headers: { authorization: `Bearer ${token}` } },
    pid: cli.child.pid!,
    stop,
  };
}

/** Loads `servers` in one window and stops them: each one's CPU per read. */
async function measure(servers: Started[], pin: boolean): Promise<{ perRead: number[]; readsPerSecond: number }> {
  if (pin) for (const { pid } of servers) execFileSync('taskset', ['-a', '-cp', '0', String(pid)], { stdio: 'ignore' });
  let result: Measured;
  try {
    result = await runLoad(
      {
        targets: servers.map((server) => server.target),
        concurrency: CONCURRENCY,
        warmupMs: WARMUP_MS,
        durationMs: DURATION_MS,
      },
      pin,
      () => servers.map(({ pid }) => processCpuMicros([pid])),
    );
  } finally {
    for (const server of servers) await server.stop();
  }
  if (result.failures) throw new Error(`${result.failures} requests failed`);
  return { perRead: result.cpuUsed.map((used, i) => used / result.byTarget[i]!), readsPerSecond: result.rps };
}

/**
 * The ratio of server CPU per read of a server on PostgreSQL over one on JSON files, measured side by side: both
 * serve in the same window, on CPU 0, the load generator on CPU 1, each with as many connections; CPU per read is
 * counted per server. Side by side, both pay alike for what else this machine runs meanwhile and for time-sharing
 * the core, which move one server's CPU per read by a third or more from one window to the next: windows one after
 * the other could not show a 30 % difference. The ratio of each round counts, and their median. The PostgreSQL
 * server reads the write counter once per turn of its event loop (see server/src/store/postgres/postgres.ts): that
 * query, shared by the turn's requests, is what it pays over the JSON files.
 */
async function sideBySide(pin: boolean): Promise<void> {
  const schema = await freshSchema();
  const dir = await mkdtemp(join(tmpdir(), 'storefront-bench-'));
  const ratios: number[] = [];
  console.log(
    `\nside by side on CPU 0: GET ${THEME}, ${CONCURRENCY} connections, as many per server, ${SIDE_BY_SIDE_ROUNDS} rounds`,
  );
  for (let round = 1; round <= SIDE_BY_SIDE_ROUNDS; round++) {
    const { perRead, readsPerSecond } = await measure([await startOurs(schema), await startOurs({ dir })], pin);
    ratios.push(perRead[0]! / perRead[1]!);
    console.log(
      `  round ${round} PostgreSQL / JSON files ${readsPerSecond.toFixed(0).padStart(6)} reads/s in all  server CPU per read: ` +
        `PostgreSQL ${perRead[0]!.toFixed(1)} µs, JSON ${perRead[1]!.toFixed(1)} µs: ${(perRead[0]! / perRead[1]!).toFixed(2)}×`,
    );
  }
  await schema.drop();
  await rm(dir, { recursive: true, force: true });
  const value = median(ratios);
  const ok = value <= 1.3;
  console.log(
    `PostgreSQL / JSON files: ${value.toFixed(2)}× server CPU per read, median of the rounds ` +
      `(${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) (need ≤ 1.30): ${ok ? 'PASS' : 'FAIL'}`,
  );
  if (!ok) process.exitCode = 1;
}

/** A quota no read here reaches: the limit's fields and counting on every answer, never a 429. */
const NEVER_REACHED = '1000000000/1s';

/**
 * What `--rate-limit` costs a read (issue 50): side by side as in {@link sideBySide}, a server with the limit on
 * beside one with it off, on JSON files (counts in memory) and on PostgreSQL (an upsert on the shared `rate_limits`
 * table per block of counts taken ahead), each pair on stores of its own. Server CPU per read, limit on over off, median of the
 * rounds: ≤ 1.2× on each store. The database's own CPU for the upsert is not counted: it is the server's cost
 * that is asked for, and the database is shared by the fleet.
 */
async function rateLimitCost(pin: boolean): Promise<void> {
  console.log(
    `\nside by side on CPU 0: GET ${THEME} with --rate-limit ${NEVER_REACHED} beside without, ${SIDE_BY_SIDE_ROUNDS} rounds per store`,
  );
  let ok = true;
  for (const store of ['json', 'postgres'] as const) {
    const ratios: number[] = [];
    for (let round = 1; round <= SIDE_BY_SIDE_ROUNDS; round++) {
      const on = store === 'json' ? { dir: await mkdtemp(join(tmpdir(), 'storefront-bench-')) } : await freshSchema();
      const off = store === 'json' ? { dir: await mkdtemp(join(tmpdir(), 'storefront-bench-')) } : await freshSchema();
      const limited = await startOurs(on, ['--rate-limit', NEVER_REACHED]);
      const headers = await captureResponse(limited.target.url, limited.target.headers);
      if (!headers.headers.ratelimit) throw new Error('--rate-limit is on but the answer has no RateLimit field');
      const { perRead, readsPerSecond } = await measure([limited, await startOurs(off)], pin);
      for (const made of [on, off]) {
        if ('dir' in made) await rm(made.dir, { recursive: true, force: true });
        else await made.drop();
      }
      ratios.push(perRead[0]! / perRead[1]!);
      console.log(
        `  round ${round} ${store.padEnd(8)} ${readsPerSecond.toFixed(0).padStart(6)} reads/s in all  server CPU per read: ` +
          `limit on ${perRead[0]!.toFixed(1)} µs, off ${perRead[1]!.toFixed(1)} µs: ${(perRead[0]! / perRead[1]!).toFixed(2)}×`,
      );
    }
    const value = median(ratios);
    ok &&= value <= 1.2;
    console.log(
      `  ${store}: limit on / off ${value.toFixed(2)}× server CPU per read, median of the rounds ` +
        `(${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) (need ≤ 1.20): ${value <= 1.2 ? 'PASS' : 'FAIL'}`,
    );
  }
  if (!ok) process.exitCode = 1;
}

async function productPages(): Promise<void> {
  const seedStarted = performance.now();
  const server = await createServer({ port: 0, products: 100_000 });
  const seeded = performance.now() - seedStarted;
  const token = await clientToken(server);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (search: string) =>
    new Promise<number>((resolve, reject) => {
      const sent = performance.now();
      const req = request(
        `${server.baseUrl}/products.json?${search}`,
        { agent, headers: { authorization: `Bearer ${token}` } },
        (res) => {
          res.on('data', () => {});
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(performance.now() - sent)
              : reject(new Error(`${search}: ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });

  const queries = ['', 'sort=price.asc', 'shop_ids=1', 'q=jacket&sort=title.asc', 'status=visible&tags=sale'];
  console.log(`\nproducts: 100 000 in the store (seeded and started in ${seeded.toFixed(0)} ms), pages of 30`);
  for (const query of queries)
    console.log(`  first request, ${query || 'default'}: ${(await get(query)).toFixed(1)} ms`);
  // Many pages of each query, in a fixed pseudo-random order: most are pages not served before.
  const times: number[] = [];
  let x = 7;
  for (let i = 0; i < 1000; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const query = queries[i % queries.length]!;
    const page = 1 + (x % 300);
    times.push(await get(`${query}${query ? '&' : ''}page=${page}&per_page=30`));
  }
  agent.destroy();
  await server.close();
  times.sort((a, b) => a - b);
  const median = percentile(times, 50);
  const ok = median < 10;
  console.log(
    `  1000 pages over ${queries.length} queries: median ${median.toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms ` +
      `(need median < 10 ms): ${ok ? 'PASS' : 'FAIL'}`,
  );
  if (!ok) process.exitCode = 1;
}

if (process.argv[2] === '--load') {
  await generateLoad(JSON.parse(process.argv[3]!) as LoadPlan);
} else {
  const pin = hasTaskset();
  if (pin) execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
  if (process.env.SERVER_API_ONLY !== 'rate-limit') {
    await throughput(pin);
    await sideBySide(pin);
  }
  await rateLimitCost(pin);
  if (process.env.SERVER_API_ONLY !== 'rate-limit') await productPages();
}
