/**
 * Start time (issue 49): how long the reference server takes from its process's spawn to its first answer, on data
 * that exists already (a JSON data directory, a PostgreSQL schema, each seeded once before), beside a bare
 * `node:http` server started the same way in the same run. Target: within 2× the bare server, in wall time and in
 * the CPU time the process spent, on both stores.
 *
 * The server runs as users run it: the package's bin, `node server/dist/cli.js` (what `npx storefront-server`
 * starts, built by `npm run bench` when stale), not through tsx, whose compiling of the sources on each start no
 * user of the package pays. The first answer is the 200 of a request through the whole shell and core (the OAuth
 * metadata, `GET /.well-known/oauth-authorization-server`, which needs no token); the bare server answers `GET /`.
 * Requests are tried every millisecond from the spawn on; the server listens before its data is open and answers
 * then, so the time counts everything before the first answer. The CPU time is the child's, every thread, read
 * from Linux's `/proc/PID/task/*\/schedstat` (nanoseconds) as soon as the answer arrived.
 *
 * Rounds alternate between the three servers, so that what the machine does meanwhile weighs on each alike; the
 * medians are compared. `START_ROUNDS` changes the number of rounds (default 15); `START_BIN` times another build of
 * the bin (another checkout's `server/dist/cli.js`, to compare before and after a change); `START_NODES` names other
 * Node binaries (comma-separated paths, e.g. `$(npx -y -p node@24 node -p process.execPath)`), whose three servers
 * are timed in the same rounds, each against its own bare server, a table each: Node's compile cache, which the bin
 * turns on, exists from Node 22.8 on.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '../server/src/create-server.js';
import { freePort } from '../test/support/free-port.js';
import { freshSchema } from '../test/support/postgres-server.js';
import { median } from './stats.js';

const ROUNDS = Number(process.env.START_ROUNDS ?? 15);
const TARGET = 2;
const BIN = process.env.START_BIN ?? fileURLToPath(new URL('../server/dist/cli.js', import.meta.url));
const NODES = [process.execPath, ...(process.env.START_NODES ?? '').split(',').filter(Boolean)];

/** A bare `node:http` server, as small as one gets: an ES module like the bin, answering every request. */
const BARE = `import { createServer } from 'node:http';
createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');`;

interface Start {
  wallMs: number;
  cpuMs: number;
}

/** CPU time of every thread of process `pid` so far, in ms. */
function cpuMsOf(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return ns / 1e6;
}

/** The status of one `GET path` on the port, or `undefined` when nothing listens there yet. */
function status(port: number, path: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET' ? resolve(undefined) : reject(error),
    );
    req.end();
  });
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Stops the child and waits for its exit (the JSON store's lock is free again after). */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** Spawns `node` with `args(port)` and `PORT` in its environment; times it to its first 200 on `path`. */
async function timeStart({ node, args, path }: Omit<Contender, 'name' | 'starts'>): Promise<Start> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STOREFRONT_')));
  const start = performance.now();
  const child = spawn(node, args(port), { env: { ...env, PORT: String(port) }, stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  try {
    for (;;) {
      if (exited) throw new Error(`${args(port).join(' ')} exited before answering`);
      const answer = await status(port, path);
      if (answer === 200) {
        const wallMs = performance.now() - start;
        return { wallMs, cpuMs: cpuMsOf(child.pid!) };
      }
      if (answer !== undefined) throw new Error(`GET ${path} answered ${answer}`);
      await sleep(1);
    }
  } finally {
    await stop(child);
  }
}

interface Contender {
  name: string;
  /** The Node binary that runs it. */
  node: string;
  args: (port: number) => string[];
  path: string;
  starts: Start[];
}

const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;

// One port for every start, as a developer or a CI job starts the server on its port each time. (On a new port each
// time, a server with the explorer writes the explorer's redirect URIs for that port at start: one write more.)
const port = await freePort();
const dir = await mkdtemp(join(tmpdir(), 'storefront-bench-start-'));
const schema = await freshSchema();
try {
  // The existing data: seeded once, as a first start does.
  const data = join(dir, 'data');
  for (const seeded of [
    await createServer({ port: 0, data, explorer: false }),
    await createServer({ port: 0, store: schema.url, explorer: false }),
  ])
    await seeded.close();

  const METADATA = '/.well-known/oauth-authorization-server';
  const contendersOf = (node: string): Contender[] => [
    { name: 'bare node:http', node, args: () => ['--input-type=module', '-e', BARE], path: '/', starts: [] },
    {
      name: 'storefront-server, JSON',
      node,
      args: (port) => [BIN, '--port', String(port), '--data', data, '--quiet'],
      path: METADATA,
      starts: [],
    },
    {
      name: 'storefront-server, PostgreSQL',
      node,
      args: (port) => [BIN, '--port', String(port), '--store', schema.url, '--quiet'],
      path: METADATA,
      starts: [],
    },
  ];
  const tables = NODES.map((node) => ({ node, contenders: contendersOf(node) }));
  const everyone = tables.flatMap((table) => table.contenders);
  // One start of each first, unmeasured: the files the processes read are then in the page cache for every round,
  // and Node's compile cache (Node 22.8 and later) holds the bin's code, as after any first start.
  for (const contender of everyone) await timeStart(contender);
  for (let round = 0; round < ROUNDS; round++) {
    for (const contender of everyone) contender.starts.push(await timeStart(contender));
  }

  let failed = 0;
  for (const { node, contenders } of tables) {
    const medians = contenders.map(({ starts }) => ({
      wall: median(starts.map((start) => start.wallMs)),
      cpu: median(starts.map((start) => start.cpuMs)),
    }));
    const bare = medians[0]!;
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    console.log(`spawn to first 200, median of ${ROUNDS} starts each (node ${version}, ${BIN}):`);
    console.log(`${''.padEnd(32)} ${'wall'.padStart(10)} ${'CPU'.padStart(10)}   ratios to bare (wall, CPU)`);
    contenders.forEach((contender, i) => {
      const { wall, cpu } = medians[i]!;
      const ratios = i === 0 ? '' : `  ${(wall / bare.wall).toFixed(2)}×  ${(cpu / bare.cpu).toFixed(2)}×`;
      const ok = wall / bare.wall <= TARGET && cpu / bare.cpu <= TARGET;
      if (i > 0 && !ok) failed++;
      const verdict = i === 0 ? '' : `  ${ok ? 'PASS' : 'FAIL'} (need ≤ ${TARGET}× each)`;
      console.log(`${contender.name.padEnd(32)} ${ms(wall)} ${ms(cpu)} ${ratios}${verdict}`);
    });
  }
  const servers = 2 * tables.length;
  console.log(
    failed
      ? `FAIL: ${failed} of ${servers} servers (store and Node) start slower than ${TARGET}× the bare server`
      : 'PASS',
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await schema.drop();
  await rm(dir, { recursive: true, force: true });
}
