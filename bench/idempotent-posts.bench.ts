/**
 * POSTs retried through a connection that loses their answers (issue 50): `IDEMPOTENT_POSTS` POSTs (default
 * 1 000) through the SDK, a mix of template creates (60 %), asset uploads (30 %) and development theme creates
 * (10 %) over the two shops the demo user administers, 8 at a time, with the SDK's own retries (a key per call, the
 * same on each attempt). Between the SDK and the servers sits a TCP proxy (node:net) that forwards bytes both ways
 * and, for 20 % of the answers to POSTs of the API, cuts the client's connection when the answer's first bytes
 * arrive: the server has committed and answered, the client sees a network error and retries. Twice: one server on
 * JSON files (in this process), and two `storefront-server` processes on one PostgreSQL schema, the proxy sending
 * each new connection to the other one, so that a retry usually reaches the server that did not answer first.
 * Afterwards the data is read back (GETs, which the proxy never cuts): each template and asset asked for exists
 * exactly once, and each shop has one development theme, the one every create of it answered. A retry whose first
 * attempt did commit, without its key, would fail (the name is taken) or create a second one: both count.
 * Pass: every POST succeeded, 0 duplicates, nothing missing. The drop rate is a figure of the run, not a guess.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, connect, createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientCredentials, createClient } from '../sdk/src/index.js';
import { createServer } from '../server/src/index.js';
import { startCli } from '../server/test/helpers/cli-process.js';
import { freshSchema } from '../test/support/postgres-server.js';

const POSTS = Number(process.env.IDEMPOTENT_POSTS ?? 1000);
const DROP = 0.2;
const CONCURRENCY = 8;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const DEMO = { clientId: 'bench-idempotent', clientSecret: 'bench-idempotent-secret-0123456789' };

/** A deterministic PRNG (mulberry32), so that a run drops the same answers as the last one given the same order. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The proxy: its origin, what it saw, and how to stop it. */
interface Proxy {
  origin: string;
  /** Answers to POSTs of the API: all, those cut, and those marked `Idempotent-Replayed` (a retry's). */
  counts: { posts: number; dropped: number; replayed: number };
  /** Where connections go, each new one to the next: set once the servers listen (their links name the proxy). */
  upstreams: { host: string; port: number }[];
  close(): Promise<void>;
}

const POST_API = Buffer.from('POST /v1/');
const RESPONSE = Buffer.from('HTTP/1.1 ');
const REPLAYED = /\r\nidempotent-replayed: *true/i;

/**
 * Forwards each connection to the next of `upstreams` in turn. The SDK's fetch sends one request at a time per
 * connection, so a chunk from the client that starts with `POST /v1/` begins a POST and the next chunk from the
 * server that starts with `HTTP/1.1 ` begins its answer: that is where a drop cuts both sockets.
 */
async function startProxy(seed: number): Promise<Proxy> {
  const draw = random(seed);
  const upstreams: Proxy['upstreams'] = [];
  const counts = { posts: 0, dropped: 0, replayed: 0 };
  const sockets = new Set<Socket>();
  let next = 0;
  const server: Server = createTcpServer((client) => {
    const upstream = connect(upstreams[next++ % upstreams.length]!);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    let postPending = false;
    client.on('data', (chunk: Buffer) => {
      if (chunk.subarray(0, POST_API.length).equals(POST_API)) postPending = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (postPending && chunk.subarray(0, RESPONSE.length).equals(RESPONSE)) {
        postPending = false;
        counts.posts++;
        if (REPLAYED.test(chunk.toString('latin1', 0, chunk.indexOf('\r\n\r\n')))) counts.replayed++;
        if (draw() < DROP) {
          counts.dropped++;
          client.destroy();
          upstream.destroy();
          return;
        }
      }
      client.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    upstreams,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

type Client = ReturnType<typeof createClient>;

/** The production themes of the shops the demo user administers. */
async function themes(client: Client) {
  const root = await client.root();
  const shops = await Promise.all(
    root.embedded('shops').map((shop) => shop.follow('self').then((detail) => detail.follow('svc:theme'))),
  );
  return shops.filter((theme) => theme.can('svc:create_template'));
}

/** What the run asked for: names of templates and assets per theme id, the development themes answered. */
interface Asked {
  templates: Map<string, string[]>;
  assets: Map<string, string[]>;
  /** By the id of the production theme they were created from. */
  devThemes: Map<string, Set<string>>;
  failed: number;
  firstError?: unknown;
}

/** Sends the POSTs through `origin` with the client's default retry policy (more attempts, shorter waits). */
async function post(origin: string, credentials: { clientId: string; clientSecret: string }, run: string) {
  const client = createClient({
    baseUrl: `${origin}/v1`,
    auth: clientCredentials({ authUrl: origin, ...credentials, scope: 'admin' }),
    // 20 % of answers lost: 2 retries would leave 0.8 % of the POSTs failed; the point is that retrying is safe.
    retry: { limit: 10, delay: () => 20 },
  });
  const targets = await themes(client);
  const asked: Asked = { templates: new Map(), assets: new Map(), devThemes: new Map(), failed: 0 };
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => map.set(key, [...(map.get(key) ?? []), value]);
  let index = 0;
  const worker = async () => {
    while (index < POSTS) {
      const i = index++;
      const theme = targets[i % targets.length]!;
      const id = theme.properties.id;
      const kind = i % 10;
      try {
        if (kind < 6) {
          const fileName = `${run}-${i}.html`;
          push(asked.templates, id, fileName);
          await theme.follow('svc:create_template', { file_name: fileName, body: `<p>${i}</p>` });
        } else if (kind < 9) {
          const fileName = `${run}-${i}.png`;
          push(asked.assets, id, fileName);
          await theme.follow('svc:create_theme_asset', { file_name: fileName, data: PNG });
        } else {
          const dev = await theme.follow('svc:create_dev_theme');
          const ids = asked.devThemes.get(id) ?? new Set();
          asked.devThemes.set(id, ids.add(dev.properties.id));
        }
      } catch (error) {
        asked.failed++;
        asked.firstError ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return asked;
}

/** Reads the data from `origin` directly: duplicates (a name more than once, or a second dev theme) and missing. */
async function check(origin: string, credentials: { clientId: string; clientSecret: string }, asked: Asked) {
  const client = createClient({
    baseUrl: `${origin}/v1`,
    auth: clientCredentials({ authUrl: origin, ...credentials, scope: 'admin' }),
  });
  let duplicates = 0;
  let missing = 0;
  const tally = (names: string[], wanted: string[]) => {
    const seen = new Map<string, number>();
    for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
    for (const name of wanted) {
      const count = seen.get(name) ?? 0;
      if (count === 0) missing++;
      else duplicates += count - 1;
    }
  };
  for (const theme of await themes(client)) {
    const id = theme.properties.id;
    tally(
      theme.embedded('templates').map((t) => t.properties.file_name),
      asked.templates.get(id) ?? [],
    );
    tally(
      theme.embedded('assets').map((a) => a.properties.file_name),
      asked.assets.get(id) ?? [],
    );
    const devIds = asked.devThemes.get(id);
    if (devIds) {
      // Every create of a shop's development theme answered the one the shop links, and no other exists.
      duplicates += devIds.size - 1;
      if (!theme.can('svc:dev_theme')) missing++;
      else if (!devIds.has((await theme.follow('svc:dev_theme')).properties.id)) duplicates++;
    }
  }
  return { duplicates, missing };
}

let pass = true;
async function report(name: string, proxy: Proxy, asked: Asked, checked: { duplicates: number; missing: number }) {
  const ok = asked.failed === 0 && checked.duplicates === 0 && checked.missing === 0;
  pass &&= ok;
  const { posts, dropped, replayed } = proxy.counts;
  console.log(
    `  ${name.padEnd(28)} ${POSTS} POSTs, ${posts} answers to POSTs of which ${dropped} cut ` +
      `(${((100 * dropped) / posts).toFixed(1)} %), ${replayed} replays: failed ${asked.failed}, duplicates ${checked.duplicates}, ` +
      `missing ${checked.missing} (target 0, 0, 0): ${ok ? 'PASS' : 'FAIL'}`,
  );
  if (asked.firstError) console.log(`    first error: ${String(asked.firstError)}`);
}

console.log(
  `${POSTS} POSTs through the SDK (60 % templates, 30 % assets, 10 % development themes), ${CONCURRENCY} at a time, ` +
    `${DROP * 100} % of their answers cut by a proxy after the server answered`,
);

{
  const dir = await mkdtemp(join(tmpdir(), 'storefront-bench-'));
  const proxy = await startProxy(1);
  const server = await createServer({ port: 0, data: join(dir, 'db.json'), demo: DEMO, publicUrl: proxy.origin });
  proxy.upstreams.push({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
  const started = performance.now();
  const asked = await post(proxy.origin, DEMO, 'json');
  const seconds = (performance.now() - started) / 1000;
  await report(
    `JSON files, one server (${seconds.toFixed(1)} s)`,
    proxy,
    asked,
    await check(proxy.origin, DEMO, asked),
  );
  await proxy.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
}

{
  const schema = await freshSchema();
  const proxy = await startProxy(2);
  const start = async () => {
    const cli = startCli([
      '--store',
      schema.url,
      '--port',
      '0',
      '--quiet',
      '--public-url',
      proxy.origin,
      '--demo-client-id',
      DEMO.clientId,
      '--demo-client-secret',
      DEMO.clientSecret,
    ]);
    const origin = (await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    return { cli, origin };
  };
  // One after the other: the first migrates and seeds the schema.
  const servers = [await start(), await start()];
  for (const { origin } of servers) proxy.upstreams.push({ host: '127.0.0.1', port: Number(new URL(origin).port) });
  const started = performance.now();
  const asked = await post(proxy.origin, DEMO, 'pg');
  const seconds = (performance.now() - started) / 1000;
  await report(
    `PostgreSQL, two servers (${seconds.toFixed(1)} s)`,
    proxy,
    asked,
    await check(proxy.origin, DEMO, asked),
  );
  await proxy.close();
  for (const { cli } of servers) {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
  await schema.drop();
}

console.log(pass ? 'PASS' : 'FAIL');
process.exitCode = pass ? 0 : 1;
