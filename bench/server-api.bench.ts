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
 *    per second one core could serve: ours ≥ 1.0 × bare Express, identity and gzip, on both stores.
 * 2. Side by side on one core, in the same window (see {@link sideBySide}), server CPU per read of each side:
 *    `storefront-server --workers 2` on PostgreSQL beside two `--workers 1` servers, two workers within 1.1× of one
 *    process (what N workers on N cores multiply), a bare `node:http` cluster beside two bare processes showing the
 *    noise of that ratio; and a server on PostgreSQL beside one on JSON files, within 1.1×.
 * 3. Pages of 30 products from a 100 000-product store, one request at a time over HTTP: the first request
 *    of each query (a cold list: filter and sort of every product) and the median over many pages.
 *    Pass: median < 10 ms.
 */
import { execFileSync, spawn } from 'node:child_process';
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, createServer as createHttpServer, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import pg from 'pg';
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
    if (name.startsWith('ours')) ok &&= ratio >= 1;
    console.log(
      `  ${name.padEnd(14)} ${capacity(result).toFixed(0).padStart(6)} req/s per core  ` +
        `(client saw ${result.rps.toFixed(0)} req/s, p99 ${result.p99.toFixed(2)} ms)  ` +
        `${ratio.toFixed(2)}× ${against} per core, ${(result.rps / best[against]!.rps).toFixed(2)}× its client rps`,
    );
  }
  console.log(
    `ours / bare Express per core, identity and gzip, both stores (need ≥ 1.00 each): ${ok ? 'PASS' : 'FAIL'}`,
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

/** The process and its children (a cluster's primary and workers). */
function processTree(pid: number): number[] {
  let listed = '';
  try {
    listed = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    // ps exits with 1 when the process has no children.
  }
  const children = listed
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((n) => n > 0);
  return [pid, ...children.flatMap(processTree)];
}

/** Child process: `workers` bare node:http servers (a node:cluster beyond one) answering the captured response. */
function bareServers(workers: number, capturedFile: string): void {
  if (workers > 1 && cluster.isPrimary) {
    for (let i = 0; i < workers; i++) cluster.fork();
    let listening = 0;
    cluster.on('listening', (_worker, address) => {
      if (++listening === workers) console.log(`listening on http://127.0.0.1:${address.port}`);
    });
    return;
  }
  const { body, headers } = JSON.parse(readFileSync(capturedFile, 'utf8')) as {
    body: string;
    headers: Captured['headers'];
  };
  const bytes = Buffer.from(body, 'base64');
  const http = createHttpServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(bytes);
  });
  http.listen(0, '127.0.0.1', () => {
    if (workers === 1) console.log(`listening on http://127.0.0.1:${(http.address() as AddressInfo).port}`);
  });
}

/** A started server (one process, or a cluster's primary and its workers): where to read, and how to stop it. */
interface Started {
  target: LoadTarget;
  pid: number;
  stop(): Promise<unknown>;
}

/**
 * Ratios of server CPU per read, measured side by side: the servers compared serve in the same window, every one of
 * their processes on CPU 0 and the load generator on CPU 1, which gives each serving process as many connections (a
 * cluster's primary deals them round-robin: 9 and 7 at times); CPU per read is counted per side (its processes' CPU
 * over its reads). Side by side, both sides pay alike for what else this machine runs meanwhile and for time-sharing
 * the core (caches refilled at each switch). Those move one server's CPU per read here by a third or more from one
 * window to the next, and two bare node:http processes cost 0.9× to 1.4× one: windows one after the other could not
 * show a 10 % difference. Time-sharing inflates a read's cost several times over, an extra cost of one side
 * included, so that the ratio keeps it: fleet workers made to burn 10 µs more per read (1.09× a read alone) showed
 * 1.12–1.14× side by side. The ratio of each round counts, and their median.
 * - Workers on PostgreSQL: `storefront-server --store … --workers 2`, as a user starts it, beside two servers of one
 *   process (`--workers 1`), each on a schema of its own so that they know nothing of each other or of the fleet:
 *   what serving as one fleet adds to a read (the cluster, members that follow each other's leases), i.e. what N
 *   workers on N cores, each alone on its core, pay over one process. The same with bare node:http (a two-worker
 *   cluster beside two lone processes: one server both ways) shows how far such a ratio moves by noise alone.
 * - Stores: a server on PostgreSQL beside one on JSON files, one process each.
 * - One worker alone on the core: what one core serves.
 */
async function sideBySide(pin: boolean): Promise<void> {
  const schemas = [await freshSchema(), await freshSchema(), await freshSchema()];
  const demo = { clientId: 'bench-fleet', clientSecret: 'bench-fleet-secret-0123456789' };
  const dir = await mkdtemp(join(tmpdir(), 'storefront-bench-'));
  const capturedFile = join(dir, 'theme.json');
  /**
   * Resolves once `count` processes hold a lease on schema `index`: a worker takes it once its data is loaded, just
   * before it listens (the banner is the first worker's; `--quiet` keeps the cluster's own lines back).
   */
  const leases = async (index: number, count: number) => {
    const { schema, url } = schemas[index]!;
    const base = new URL(url);
    base.search = '';
    const client = new pg.Client({ connectionString: base.href });
    await client.connect();
    try {
      for (const deadline = Date.now() + 60_000; ; ) {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM "${schema}".processes WHERE lease_until > now()`,
        );
        if (rows[0].n >= count) return;
        if (Date.now() > deadline) throw new Error(`${count} workers did not start on ${schema}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await client.end();
    }
  };
  /** `storefront-server` with `workers` processes on `store`: a PostgreSQL schema of `schemas`, or JSON files. */
  const startOurs = async (workers: number, store: number | 'json'): Promise<Started> => {
    const cli = startCli([
      ...(store === 'json' ? ['--data', join(dir, 'db.json')] : ['--store', schemas[store]!.url]),
      '--port',
      '0',
      '--quiet',
      '--workers',
      String(workers),
      '--demo-client-id',
      demo.clientId,
      '--demo-client-secret',
      demo.clientSecret,
    ]);
    const origin = (await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    if (workers > 1) await leases(store as number, workers);
    const response = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, demo);
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
  };
  const startBare = async (workers: number): Promise<Started> => {
    const child = spawn(process.execPath, ['--import', 'tsx', self, '--bare', String(workers), capturedFile], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const origin = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk;
        const match = /listening on (\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`bare servers exited with ${code}`)));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const stop = () => {
      child.kill('SIGTERM');
      return exited;
    };
    return { target: { url: `${origin}${THEME}`, headers: {} }, pid: child.pid!, stop };
  };
  /**
   * Loads the servers of `sides` in one window and stops them: each side's CPU per read. A side's server appears
   * once per process that serves, so that every serving process gets as many connections.
   */
  const measure = async (sides: Started[][]): Promise<{ perRead: number[]; readsPerSecond: number }> => {
    // Every worker of a cluster listening and past its start before the window.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const pids = sides.map((side) => [...new Set(side)].flatMap((server) => processTree(server.pid)));
    if (pin)
      for (const pid of pids.flat()) execFileSync('taskset', ['-a', '-cp', '0', String(pid)], { stdio: 'ignore' });
    const targets = sides.flat();
    let result: Measured;
    try {
      result = await runLoad(
        {
          targets: targets.map((server) => server.target),
          concurrency: CONCURRENCY,
          warmupMs: WARMUP_MS,
          durationMs: DURATION_MS,
        },
        pin,
        () => pids.map(processCpuMicros),
      );
    } finally {
      for (const server of new Set(targets)) await server.stop();
    }
    if (result.failures) throw new Error(`${result.failures} requests failed`);
    const reads = sides.map((side) =>
      targets.reduce((sum, server, index) => sum + (side.includes(server) ? result.byTarget[index]! : 0), 0),
    );
    return { perRead: result.cpuUsed.map((used, side) => used / reads[side]!), readsPerSecond: result.rps };
  };
  const comparisons = {
    workers: { label: 'two workers / two lone servers', over: 'fleet', under: 'lone servers' },
    bare: { label: 'bare node:http, the same way', over: 'fleet', under: 'lone servers' },
    stores: { label: 'PostgreSQL / JSON files', over: 'PostgreSQL', under: 'JSON' },
  } as const;
  const ratios: Record<keyof typeof comparisons, number[]> = { workers: [], bare: [], stores: [] };
  let alone = Number.POSITIVE_INFINITY;
  console.log(
    `\nside by side on CPU 0: GET ${THEME}, ${CONCURRENCY} connections, as many per serving process, ${SIDE_BY_SIDE_ROUNDS} rounds`,
  );
  for (let round = 1; round <= SIDE_BY_SIDE_ROUNDS; round++) {
    const fleet = await startOurs(2, 0);
    if (round === 1) {
      const captured = await captureResponse(fleet.target.url, fleet.target.headers);
      await writeFile(
        capturedFile,
        JSON.stringify({ body: captured.body.toString('base64'), headers: captured.headers }),
      );
    }
    const workers = await measure([
      [fleet, fleet],
      [await startOurs(1, 1), await startOurs(1, 2)],
    ]);
    const bareFleet = await startBare(2);
    const bare = await measure([
      [bareFleet, bareFleet],
      [await startBare(1), await startBare(1)],
    ]);
    const stores = await measure([[await startOurs(1, 1)], [await startOurs(1, 'json')]]);
    for (const [name, { perRead, readsPerSecond }] of [
      ['workers', workers],
      ['bare', bare],
      ['stores', stores],
    ] as const) {
      const { label, over, under } = comparisons[name];
      ratios[name].push(perRead[0]! / perRead[1]!);
      console.log(
        `  round ${round} ${label.padEnd(31)} ${readsPerSecond.toFixed(0).padStart(6)} reads/s in all  server CPU per read: ` +
          `${over} ${perRead[0]!.toFixed(1)} µs, ${under} ${perRead[1]!.toFixed(1)} µs: ${(perRead[0]! / perRead[1]!).toFixed(2)}×`,
      );
    }
    const lone = await startOurs(1, 0);
    const one = await measure([[lone]]);
    alone = Math.min(alone, one.perRead[0]!);
    console.log(
      `  round ${round} one worker alone on the core   ${one.readsPerSecond.toFixed(0).padStart(6)} reads/s         server CPU per read ${one.perRead[0]!.toFixed(1)} µs`,
    );
  }
  for (const schema of schemas) await schema.drop();
  await rm(dir, { recursive: true, force: true });
  const verdict = (name: keyof typeof comparisons, need?: number) => {
    const value = median(ratios[name]);
    const ok = need === undefined || value <= need;
    console.log(
      `${comparisons[name].label}: ${value.toFixed(2)}× server CPU per read, median of the rounds ` +
        `(${Math.min(...ratios[name]).toFixed(2)}–${Math.max(...ratios[name]).toFixed(2)})` +
        (need === undefined ? ': noise alone' : ` (need ≤ ${need.toFixed(2)}): ${ok ? 'PASS' : 'FAIL'}`),
    );
    if (!ok) process.exitCode = 1;
    return value;
  };
  const fleetCost = verdict('workers', 1.1);
  verdict('bare');
  verdict('stores', 1.1);
  // A fleet below 1× is noise: it adds nothing a lone process does not pay.
  const perCore = 1e6 / (alone * Math.max(1, fleetCost));
  console.log(
    `N workers on N cores then serve about N × ${perCore.toFixed(0)} reads/s (one worker alone on its core, its best ` +
      `round, ${alone.toFixed(1)} µs per read, times what a fleet adds); reads do not reach PostgreSQL while a process ` +
      'holds its lease, so each host on one database serves as many (not measured here: one host)',
  );
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
} else if (process.argv[2] === '--bare') {
  bareServers(Number(process.argv[3]), process.argv[4]!);
} else {
  const pin = hasTaskset();
  if (pin) execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
  await throughput(pin);
  await sideBySide(pin);
  await productPages();
}
