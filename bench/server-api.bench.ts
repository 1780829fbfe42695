/**
 * Reference server throughput and list latency.
 *
 * 1. `GET /v1/shops/1/theme.json` (admin token, 14 templates) against our server, a bare Express 5 app and a
 *    bare `node:http` server that answer the same bytes and headers; then, with `Accept-Encoding: gzip`, our
 *    server against the bare Express app answering our gzipped bytes and headers (what serving a cached gzip
 *    costs at best). The load generator is this same file in a child process (`--load`), pinned to the other
 *    core when `taskset` exists, with keep-alive connections at a fixed concurrency for a fixed duration over
 *    loopback. Rounds alternate the targets; each target's best round counts. Two figures per target:
 *    requests per second and p99 as the client saw them, and the servers' CPU time per request (this process
 *    serves all of them and does nothing else meanwhile). On a machine shared with other work the client is
 *    often the bottleneck and rps then says little, so the pass criterion is on CPU time, i.e. the requests
 *    per second one core could serve: ours ≥ 1.0 × bare Express, identity and gzip. The same GET on the
 *    JSON-file store and on the PostgreSQL store (identity and gzip; each PostgreSQL request waits for the store's
 *    read-your-writes check): PostgreSQL's server CPU per read within 1.1× of the JSON store's.
 * 2. Workers on PostgreSQL: `storefront-server --workers 1` and `--workers 2`, the same GET, server CPU per read over
 *    every process of the fleet: two workers within 1.1× of one (what N workers on N cores multiply), in the
 *    default `freshness` (`notify` printed beside it). Two bare `node:http` processes against one, answering the
 *    same bytes, show what time-sharing one core costs any server (the floor of that ratio).
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
import { createPostgresStore, createServer } from '../server/src/index.js';
import { startCli } from '../server/test/helpers/cli-process.js';
import { clientToken, tokenRequest } from '../server/test/helpers/test-server.js';
import { freshSchema } from '../test/support/postgres-server.js';
import { median, percentile } from './stats.js';

/** What the load generator runs against one target. */
interface LoadPlan {
  url: string;
  headers: Record<string, string>;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}

interface LoadResult {
  /** Completed in the measured window. */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

const CONCURRENCY = 32;
const WARMUP_MS = 1000;
const DURATION_MS = 4000;
const ROUNDS = 3;
/**
 * Rounds of the workers' section: more, since a moment of load from elsewhere on the machine spoils a round, and
 * only rounds spared by it show what two processes cost.
 */
const FLEET_ROUNDS = 6;

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
  const target = new URL(plan.url);
  const lines = [`GET ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`];
  for (const [name, value] of Object.entries(plan.headers)) lines.push(`${name}: ${value}`);
  const requestBytes = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  const start = performance.now();
  const measureFrom = start + plan.warmupMs;
  const end = measureFrom + plan.durationMs;
  const latencies: number[] = [];
  let failures = 0;
  const loop = () =>
    new Promise<void>((resolve, reject) => {
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
          if (status === 200) latencies.push(performance.now() - sent);
          else failures++;
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
  await Promise.all(Array.from({ length: plan.concurrency }, loop));
  latencies.sort((a, b) => a - b);
  const result: LoadResult = {
    requests: latencies.length,
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

/** A load run's client-side figures and the server CPU time per request in its measured window. */
interface Measured extends LoadResult {
  cpuPerRequest: number;
}

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * Runs the load generator in its own process (on CPU 1 when pinning works) and returns its figures. `cpu`: the
 * servers' CPU time so far, µs (default: this process's).
 */
function runLoad(plan: LoadPlan, pin: boolean, cpu: () => number = cpuMicros): Promise<Measured> {
  const node = [process.execPath, '--import', 'tsx', self, '--load', JSON.stringify(plan)];
  const [command, ...args] = pin ? ['taskset', '-c', '1', ...node] : node;
  return new Promise((resolve, reject) => {
    const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let cpuFrom = 0;
    let cpuTo = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      if (!cpuFrom && out.includes('measuring\n')) cpuFrom = cpu();
      if (!cpuTo && out.endsWith('}\n')) cpuTo = cpu();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0 || !cpuFrom || !cpuTo) return reject(new Error(`load generator exited with ${code}`));
      const result = JSON.parse(out.slice(out.indexOf('\n') + 1)) as LoadResult;
      resolve({ ...result, cpuPerRequest: (cpuTo - cpuFrom) / result.requests });
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
  const server = await createServer({ port: 0 });
  const token = await clientToken(server);
  // The same seed on each store: the JSON files and PostgreSQL, for the stores' share of a read.
  const jsonDir = await mkdtemp(join(tmpdir(), 'storefront-bench-'));
  const onJson = await createServer({ port: 0, data: join(jsonDir, 'db.json') });
  const schema = await freshSchema();
  const onPostgres = await createServer({ port: 0, store: schema.url });
  // Reads current through NOTIFY only, no check of the write counter per request (see `freshness`).
  const notifyStore = await createPostgresStore(schema.url, { freshness: 'notify' });
  const onPostgresNotify = await createServer({ port: 0, store: notifyStore });
  const jsonToken = await clientToken(onJson);
  const pgToken = await clientToken(onPostgres);
  const notifyToken = await clientToken(onPostgresNotify);
  const path = '/v1/shops/1/theme.json';
  const plainRequest = { authorization: `Bearer ${token}` };
  const gzipRequest = { ...plainRequest, 'accept-encoding': 'gzip' };
  const plain = await captureResponse(`${server.url}${path}`, plainRequest);
  const gzipped = await captureResponse(`${server.url}${path}`, gzipRequest);
  if (gzipped.headers['content-encoding'] !== 'gzip') throw new Error('theme.json was not gzipped');
  const templates = (JSON.parse(plain.body.toString()) as { _embedded: { templates: unknown[] } })._embedded.templates;

  const expressApp = ({ body, headers }: Captured) => {
    const app = express();
    app.disable('x-powered-by');
    app.disable('etag');
    app.get(path, (_req, res) => {
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
    ours: { origin: server.url, headers: plainRequest },
    express: { origin: origins.express!, headers: plainRequest },
    'node:http': { origin: origins['node:http']!, headers: plainRequest },
    'ours gzip': { origin: server.url, headers: gzipRequest },
    'express gzip': { origin: origins['express gzip']!, headers: gzipRequest },
    'ours json': { origin: onJson.url, headers: { authorization: `Bearer ${jsonToken}` } },
    'ours pg': { origin: onPostgres.url, headers: { authorization: `Bearer ${pgToken}` } },
    'ours pg gzip': {
      origin: onPostgres.url,
      headers: { authorization: `Bearer ${pgToken}`, 'accept-encoding': 'gzip' },
    },
    'ours pg notify': { origin: onPostgresNotify.url, headers: { authorization: `Bearer ${notifyToken}` } },
  };

  console.log(
    `GET ${path}: ${plain.body.length.toLocaleString('en')} bytes (${gzipped.body.length.toLocaleString('en')} gzipped), ` +
      `${templates.length} templates; ${CONCURRENCY} connections, ` +
      `${DURATION_MS / 1000} s per round after ${WARMUP_MS / 1000} s warm-up, ${ROUNDS} rounds, ` +
      `load generator ${pin ? 'pinned to CPU 1, servers to CPU 0' : 'not pinned (no taskset)'}`,
  );
  const best: Record<string, Measured> = {};
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, { origin, headers }] of Object.entries(targets)) {
      const result = await runLoad(
        {
          url: `${origin}${path}`,
          headers,
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
  await server.close();
  await onJson.close();
  await onPostgres.close();
  await onPostgresNotify.close();
  await notifyStore.close();
  await rm(jsonDir, { recursive: true, force: true });
  await schema.drop();
  for (const http of Object.values(bare)) await new Promise((resolve) => http.close(resolve));

  const capacity = (result: Measured) => 1e6 / result.cpuPerRequest;
  console.log('best round per target (least server CPU per request), ours against the bare servers of its encoding:');
  for (const [name, result] of Object.entries(best)) {
    if (name.startsWith('ours ') && name !== 'ours gzip') continue;
    const oursName = name.endsWith(' gzip') ? 'ours gzip' : 'ours';
    const ours = best[oursName]!;
    console.log(
      `  ${name.padEnd(14)} ${capacity(result).toFixed(0).padStart(6)} req/s per core  ` +
        `(client saw ${result.rps.toFixed(0)} req/s, p99 ${result.p99.toFixed(2)} ms)  ` +
        `${oursName}/${name}: ${(capacity(ours) / capacity(result)).toFixed(2)}× per core, ` +
        `${(ours.rps / result.rps).toFixed(2)}× client rps, ${(ours.p99 / result.p99).toFixed(2)}× p99`,
    );
  }
  const ratios = {
    identity: capacity(best.ours!) / capacity(best.express!),
    gzip: capacity(best['ours gzip']!) / capacity(best['express gzip']!),
  };
  const ok = ratios.identity >= 1 && ratios.gzip >= 1;
  console.log(
    `ours / bare Express: ${ratios.identity.toFixed(2)}× requests per second per core identity, ` +
      `${ratios.gzip.toFixed(2)}× gzip (need ≥ 1.00 each): ${ok ? 'PASS' : 'FAIL'}`,
  );
  if (!ok) process.exitCode = 1;
  const perCore = (name: string, against: string) => capacity(best[name]!) / capacity(best[against]!);
  console.log(
    'per store, server CPU per read against bare Express sending the same bytes, and against the JSON store:',
  );
  for (const [name, bareName] of [
    ['ours json', 'express'],
    ['ours pg', 'express'],
    ['ours pg gzip', 'express gzip'],
    ['ours pg notify', 'express'],
  ] as const) {
    console.log(
      `  ${name.padEnd(14)} ${best[name]!.cpuPerRequest.toFixed(1).padStart(6)} µs/req  ${perCore(name, bareName).toFixed(2)}× ${bareName} per core` +
        (name === 'ours json'
          ? ''
          : `  ${(best[name]!.cpuPerRequest / best[name.endsWith('gzip') ? 'ours gzip' : 'ours json']!.cpuPerRequest).toFixed(2)}× the CPU of ${name.endsWith('gzip') ? 'ours gzip (memory)' : 'ours json'}`),
    );
  }
  const pgOverJson = best['ours pg']!.cpuPerRequest / best['ours json']!.cpuPerRequest;
  console.log(
    `PostgreSQL / JSON store: ${pgOverJson.toFixed(2)}× server CPU per read (need ≤ 1.10): ${pgOverJson <= 1.1 ? 'PASS' : 'FAIL'}`,
  );
}

/** CPU time (µs) used so far by the processes `pids`, from /proc (user + system, in clock ticks of 10 ms). */
function processCpuMicros(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone: counted up to its last reading by the caller's window only if it lived.
    }
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

/** A started fleet: its origin, and how to stop it. */
interface Fleet {
  origin: string;
  pid: number;
  token: string;
  stop(): Promise<unknown>;
}

/**
 * Efficiency of workers on PostgreSQL: `storefront-server --store … --workers N` as a user starts it (N = 1: one
 * process, no cluster), pinned to CPU 0 with the load generator on CPU 1, the same GET of the theme; server CPU per
 * read over every process of the fleet (primary included). Two workers on one core cannot serve more than one;
 * what counts is that a read costs no more with two, which is what N workers on N cores then multiply. Bare
 * node:http processes answering the same bytes give the floor: what two processes sharing one core cost anyway.
 */
async function workerEfficiency(pin: boolean): Promise<void> {
  const schema = await freshSchema();
  const demo = { clientId: 'bench-fleet', clientSecret: 'bench-fleet-secret-0123456789' };
  const capturedDir = await mkdtemp(join(tmpdir(), 'storefront-bench-'));
  const capturedFile = join(capturedDir, 'theme.json');
  const cpuPerRead: Record<string, number> = {};
  const startOurs = async (workers: number, freshness: string): Promise<Fleet> => {
    const url = new URL(schema.url);
    url.searchParams.set('freshness', freshness);
    const cli = startCli([
      '--store',
      url.href,
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
    const response = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, demo);
    const { access_token: token } = (await response.json()) as { access_token: string };
    const stop = () => {
      cli.child.kill('SIGTERM');
      return cli.exited;
    };
    return { origin, pid: cli.child.pid!, token, stop };
  };
  const startBare = async (workers: number): Promise<Fleet> => {
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
    return { origin, pid: child.pid!, token: 'none', stop };
  };
  const fleets = [
    ['1 request', () => startOurs(1, 'request')],
    ['2 request', () => startOurs(2, 'request')],
    ['1 notify', () => startOurs(1, 'notify')],
    ['2 notify', () => startOurs(2, 'notify')],
    ['1 bare', () => startBare(1)],
    ['2 bare', () => startBare(2)],
  ] as const;
  console.log(
    `\nworkers on PostgreSQL: GET /v1/shops/1/theme.json, ${CONCURRENCY} connections, best of ${FLEET_ROUNDS} rounds`,
  );
  /** Two workers' CPU per read over one's, per round and kind: the median is printed beside the best's ratio. */
  const roundRatios: Record<string, number[]> = { request: [], notify: [], bare: [] };
  let oneWorker = 0;
  for (let round = 1; round <= FLEET_ROUNDS; round++) {
    for (const [key, start] of fleets) {
      const fleet = await start();
      const workers = Number(key[0]);
      const headers = { authorization: `Bearer ${fleet.token}` };
      if (round === 1 && key === '1 request') {
        const captured = await captureResponse(`${fleet.origin}/v1/shops/1/theme.json`, headers);
        await writeFile(
          capturedFile,
          JSON.stringify({ body: captured.body.toString('base64'), headers: captured.headers }),
        );
      }
      // Every worker of a fleet listening and past its start before the window.
      if (workers > 1) await new Promise((resolve) => setTimeout(resolve, 1500));
      const pids = processTree(fleet.pid);
      if (pin) for (const pid of pids) execFileSync('taskset', ['-a', '-cp', '0', String(pid)], { stdio: 'ignore' });
      const result = await runLoad(
        {
          url: `${fleet.origin}/v1/shops/1/theme.json`,
          headers,
          concurrency: CONCURRENCY,
          warmupMs: WARMUP_MS,
          durationMs: DURATION_MS,
        },
        pin,
        () => processCpuMicros(pids),
      );
      await fleet.stop();
      if (result.failures) throw new Error(`${key}: ${result.failures} requests failed`);
      const [, kind] = key.split(' ');
      console.log(
        `  round ${round} ${workers} ${workers > 1 ? 'workers' : 'worker '} ${kind === 'bare' ? 'bare node:http   ' : `freshness ${kind!.padEnd(7)}`} ` +
          `${result.rps.toFixed(0).padStart(6)} req/s  p99 ${result.p99.toFixed(2)} ms  server CPU ${result.cpuPerRequest.toFixed(1)} µs/req`,
      );
      cpuPerRead[key] = Math.min(cpuPerRead[key] ?? Number.POSITIVE_INFINITY, result.cpuPerRequest);
      if (workers === 1) oneWorker = result.cpuPerRequest;
      else roundRatios[kind!]!.push(result.cpuPerRequest / oneWorker);
    }
  }
  await schema.drop();
  await rm(capturedDir, { recursive: true, force: true });
  const ratio = (kind: string) => cpuPerRead[`2 ${kind}`]! / cpuPerRead[`1 ${kind}`]!;
  const floor = ratio('bare');
  console.log(`bare node:http: two processes / one on the same core: ${floor.toFixed(2)}× CPU per read (the floor)`);
  console.log(
    `against the floor (what time-sharing one core costs any server in this run): request ${(ratio('request') / floor).toFixed(2)}×, ` +
      `notify ${(ratio('notify') / floor).toFixed(2)}× (informative)`,
  );
  for (const kind of ['request', 'notify']) {
    const ok = ratio(kind) <= 1.1;
    console.log(
      `freshness ${kind}${kind === 'request' ? ' (default)' : ''}: two workers / one: ${ratio(kind).toFixed(2)}× server CPU per read ` +
        `(best rounds; median of the rounds' ratios ${median(roundRatios[kind]!).toFixed(2)}×) ` +
        `(need ≤ 1.10${kind === 'request' ? '' : '; informative'}): ${ok ? 'PASS' : 'FAIL'}; N workers on N cores then serve about N × ` +
        `${(1e6 / cpuPerRead[`2 ${kind}`]!).toFixed(0)} reads/s, and each host on one database as many`,
    );
    if (kind === 'request' && !ok) process.exitCode = 1;
  }
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
  await workerEfficiency(pin);
  await productPages();
}
