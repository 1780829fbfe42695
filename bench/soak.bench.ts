/**
 * Soak: a real server process under a steady mixed load (reads of the theme, products and templates, template
 * updates, tokens issued) for a while, with every process's memory sampled; the question is whether memory is flat
 * once it has warmed up (issue 47: at most 0.1 MB a minute after the plateau).
 *
 * Two servers run side by side: the JSON files (one process) and, when PostgreSQL is at hand, `--workers 2` on a
 * schema of its own (the primary and two workers). Each server process samples itself every `SAMPLE_S` seconds,
 * after a full garbage collection (`--expose-gc`), so that the heap figure is what is alive, not what awaits
 * collection. The first third of the run is the warm-up; the slope of the last two thirds (least squares) is the
 * growth per minute. Every write records its event (kept 30 days), so the data itself grows with the writes: the
 * bench prints the writes per minute beside the slopes, and the heap's growth per write, to compare them.
 *
 * `npm run bench -- soak` runs a minute; `SOAK_MINUTES=30 npm run bench -- soak` the long soak. `SOAK_WRITES=0`
 * leaves the writes out (reads only): what still grows then is not the data.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FreshSchema, freshSchema, POSTGRES } from '../test/support/postgres-server.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 1);
if (!(MINUTES > 0)) throw new Error(`SOAK_MINUTES must be a positive number, got "${process.env.SOAK_MINUTES}"`);
const SAMPLE_S = MINUTES >= 10 ? 15 : 3;
const WRITES = process.env.SOAK_WRITES !== '0';
/** Requests in flight at once against each server. */
const CONCURRENCY = 4;
/** A pause between two requests of one client: a steady load that leaves the shared machine some CPU. */
const PAUSE_MS = 2;
const CLI = fileURLToPath(new URL('../server/dist/cli.js', import.meta.url));
const DEMO = { id: 'soak-app', secret: 'soak-secret-0123456789' };
const MARK = '@soak ';

/**
 * Loaded into each server process (the primary passes its flags to its workers): one line on stderr per sample,
 * after a full collection. Unreferenced, so that it never keeps a process alive.
 */
const SAMPLER = `data:text/javascript,${encodeURIComponent(`
import { getHeapStatistics } from 'node:v8';
setInterval(() => {
  globalThis.gc();
  const { rss, external, arrayBuffers } = process.memoryUsage();
  const heap = getHeapStatistics().used_heap_size;
  process.stderr.write('${MARK}' + JSON.stringify({ pid: process.pid, t: Date.now(), rss, heap, external, arrayBuffers }) + '\\n');
}, ${SAMPLE_S * 1000}).unref();
`)}`;

interface Sample {
  pid: number;
  t: number;
  rss: number;
  heap: number;
  external: number;
  arrayBuffers: number;
}

interface Soaked {
  name: string;
  samples: Sample[];
  /** Writes acknowledged and requests answered, with their times. */
  writes: number[];
  requests: number;
  failures: number;
  /** The JSON data directory's size in bytes, sampled with the writes (JSON variant only). */
  disk?: { t: number; bytes: number }[];
  /** Stops the server; resolves once it exited. */
  stop(): Promise<void>;
  origin: string;
}

/** Starts the built bin with the sampler; resolves once it serves. */
async function startServer(name: string, args: string[]): Promise<Soaked> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', SAMPLER, CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('STOREFRONT_'))),
  });
  const samples: Sample[] = [];
  let err = '';
  let pending = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith(MARK)) samples.push(JSON.parse(line.slice(MARK.length)) as Sample);
      else err += `${line}\n`;
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The request log is read and dropped: it is part of what a server does under load.
  let out = '';
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (out.length < 100_000) out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match && (!args.includes('--workers') || /workers listening/.test(out))) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`${name} exited before serving:\n${out}\n${err}`)));
  });
  return {
    name,
    samples,
    writes: [],
    requests: 0,
    failures: 0,
    origin,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function adminToken(origin: string): Promise<string> {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: 'admin',
      client_id: DEMO.id,
      client_secret: DEMO.secret,
    }),
  });
  if (!response.ok) throw new Error(`token request: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** One client's loop until `until`: nine reads and an update of its template in ten, a token issued now and then. */
async function drive(server: Soaked, client: number, until: number): Promise<void> {
  const { origin } = server;
  const token = await adminToken(origin);
  const headers = { authorization: `Bearer ${token}` };
  // A template of this client's own, updated over and over: the data keeps its size but for the events.
  const created = await fetch(`${origin}/v1/themes/1/templates`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ file_name: `soak-${client}.html`, body: '<p>soak</p>' }),
  });
  if (created.status !== 201) throw new Error(`template creation: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const reads = [
    `${origin}/v1/shops/1/theme.json`,
    `${origin}/v1/products.json`,
    `${origin}/v1/themes/1/templates/${id}.json`,
    `${origin}/v1/`,
  ];
  for (let n = 0; Date.now() < until; n++) {
    try {
      let response: Response;
      if (WRITES && n % 10 === 9) {
        response = await fetch(`${origin}/v1/themes/1/templates/${id}.json`, {
          method: 'PUT',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ body: `<p>soak ${client} ${n}</p>` }),
        });
        if (response.ok) server.writes.push(Date.now());
      } else if (WRITES && n % 200 === 199) {
        await adminToken(origin);
        server.writes.push(Date.now());
        server.requests++;
        continue;
      } else {
        response = await fetch(reads[n % reads.length]!, { headers });
      }
      await response.arrayBuffer();
      server.requests++;
      if (!response.ok) server.failures++;
    } catch {
      server.failures++;
    }
    await sleep(PAUSE_MS);
  }
}

/** Least-squares slope of `value` over time, per minute. */
function slopePerMinute(samples: Sample[], value: (s: Sample) => number): number {
  const xs = samples.map((s) => s.t / 60_000);
  const ys = samples.map(value);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const mbSlope = (bytes: number) => `${bytes >= 0 ? '+' : ''}${(bytes / 2 ** 20).toFixed(3)}`;

/** The bytes of the files under `path`. */
async function sizeOf(path: string): Promise<number> {
  const names = await readdir(path, { recursive: true });
  const sizes = await Promise.all(
    names.map((name) =>
      stat(join(path, name)).then(
        (s) => (s.isFile() ? s.size : 0),
        () => 0,
      ),
    ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

function report(server: Soaked, started: number, ended: number): void {
  const plateau = started + (ended - started) / 3;
  const minutes = (ended - plateau) / 60_000;
  const writes = server.writes.filter((t) => t >= plateau).length;
  console.log(
    `\n${server.name}: ${server.requests} requests (${server.failures} failed), ${(writes / minutes).toFixed(0)} writes a minute after the warm-up`,
  );
  const disk = server.disk?.filter((d) => d.t >= plateau);
  if (disk && disk.length > 1 && writes) {
    const grown = disk.at(-1)!.bytes - disk[0]!.bytes;
    console.log(
      `  data on disk: ${mb(disk[0]!.bytes)} → ${mb(disk.at(-1)!.bytes)} MB, ${(grown / writes).toFixed(0)} B/write`,
    );
  }
  const pids = [...new Set(server.samples.map((s) => s.pid))];
  console.log(
    '  process   samples   RSS start → end MB   RSS MB/min   heap start → end MB   heap MB/min   heap B/write',
  );
  for (const pid of pids) {
    const all = server.samples.filter((s) => s.pid === pid);
    const late = all.filter((s) => s.t >= plateau);
    if (late.length < 3) {
      console.log(`  ${pid}: too few samples after the warm-up (${late.length})`);
      continue;
    }
    const rss = slopePerMinute(late, (s) => s.rss);
    const heap = slopePerMinute(late, (s) => s.heap);
    const perWrite = writes ? (heap * minutes) / writes : Number.NaN;
    console.log(
      `  ${String(pid).padEnd(9)} ${String(all.length).padEnd(9)} ${`${mb(late[0]!.rss)} → ${mb(late.at(-1)!.rss)}`.padEnd(20)} ` +
        `${mbSlope(rss).padEnd(12)} ${`${mb(late[0]!.heap)} → ${mb(late.at(-1)!.heap)}`.padEnd(21)} ` +
        `${mbSlope(heap).padEnd(13)} ${perWrite.toFixed(0)}`,
    );
  }
}

const dir = await mkdtemp(join(tmpdir(), 'soak-'));
const demo = ['--demo-client-id', DEMO.id, '--demo-client-secret', DEMO.secret];
const common = ['--port', '0', '--products', '200', ...demo];
let schema: FreshSchema | undefined;
const servers: Soaked[] = [];
try {
  servers.push(await startServer('JSON files, one process', [...common, '--data', join(dir, 'db.json')]));
  if (POSTGRES.available()) {
    schema = await freshSchema();
    servers.push(await startServer('PostgreSQL, --workers 2', [...common, '--store', schema.url, '--workers', '2']));
  } else {
    console.log(`PostgreSQL variant skipped: ${POSTGRES.remedy}`);
  }
  console.log(
    `Soaking ${servers.length} server(s) for ${MINUTES} min, ${CONCURRENCY} clients each, samples every ${SAMPLE_S} s${WRITES ? '' : ', reads only'}`,
  );
  const started = Date.now();
  const until = started + MINUTES * 60_000;
  const json = servers[0]!;
  json.disk = [];
  const measureDisk = setInterval(
    () => void sizeOf(dir).then((bytes) => json.disk!.push({ t: Date.now(), bytes })),
    SAMPLE_S * 1000,
  );
  await Promise.all(
    servers.flatMap((server) => Array.from({ length: CONCURRENCY }, (_, client) => drive(server, client, until))),
  );
  clearInterval(measureDisk);
  // One more sample period, so that the last one falls after the load.
  await sleep(SAMPLE_S * 1000);
  for (const server of servers) report(server, started, until);
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await schema?.drop();
  await rm(dir, { recursive: true, force: true });
}
