/**
 * Webhook deliveries across processes on one PostgreSQL schema (issue 45, "Across processes"): two servers and one
 * `--workers 2`, 300 template writes spread over them → 300 events, each delivered, none attempted by two
 * processes at once (each attempt is claimed through the database, `postgres-claims.ts`). And a process killed
 * mid-attempt: the other one makes it again, once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PGBOUNCER, type Pgbouncer, ROUTES, startPgbouncer } from '../../../test/support/pgbouncer-server.js';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { type CliProcess, startCli } from '../helpers/cli-process.js';
import { type FleetReceiver, startFleetReceiver } from './fleet-receiver.js';
import { adminToken, connect, type Server, startServers, stopServers } from './write-load.js';

const skip = skipWithout(POSTGRES, 'The webhook fleet tests');
const skipPooled = skip || skipWithout(PGBOUNCER, 'The webhook fleet tests through PgBouncer');
/** startServers' demo app, which adminToken uses. */
const DEMO = { clientId: 'fault-app', clientSecret: 'fault-secret-0123456789' };
/**
 * Writes, directly and through a pooler: many claims, on shared server connections too. Four processes polling
 * one schema would attempt events twice within the first dozens if a claim did not hold; 1 000 writes (the direct
 * route's before) took half a minute more here, at some 30 ms a write.
 */
const WRITES = 300;
/** Templates created first; the other writes update them (a theme holds at most 1000 templates). */
const CREATED = 100;
/** Writes in flight at once, over all origins. */
const PARALLEL = 12;

interface Doc {
  id: string;
  type: string;
  _links: Record<string, { href: string }>;
  _embedded: { items: Doc[] };
}

async function call(origin: string, token: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await fetch(path.startsWith('http') ? path : `${origin}/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(init.json ? { 'content-type': 'application/json' } : {}) },
    ...(init.json ? { body: JSON.stringify(init.json) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, doc: (text ? JSON.parse(text) : undefined) as Doc };
}

/** Every event of the list, walked from the start through `next` (which carries `after`). */
async function allEvents(origin: string, token: string): Promise<Doc[]> {
  const events: Doc[] = [];
  let href = `${origin}/v1/events.json?per_page=100`;
  for (;;) {
    const { status, doc } = await call(origin, token, href);
    expect(status).toBe(200);
    if (!doc._embedded.items.length) return events;
    events.push(...doc._embedded.items);
    href = doc._links.next!.href;
  }
}

/** Resolves once `done()`, polling; throws after `ms`. */
async function until(done: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The delivery attempts in the schema, by status. */
async function attemptsByStatus(url: string, schema: string): Promise<Record<string, number>> {
  const db = await connect(url);
  try {
    const { rows } = await db.query<{ status: string; n: string }>(
      `SELECT row->>'status' AS status, count(*) AS n FROM "${schema}".webhook_deliveries WHERE row IS NOT NULL GROUP BY 1`,
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  } finally {
    await db.end();
  }
}

describe.skipIf(skip)('webhook deliveries across processes on one PostgreSQL schema', () => {
  let schema: FreshSchema | undefined;
  let servers: Server[] = [];
  let cluster: CliProcess | undefined;
  let receiver: FleetReceiver | undefined;
  let bouncer: Pgbouncer | undefined;

  afterEach(async () => {
    await stopServers(servers);
    servers = [];
    if (cluster && cluster.child.exitCode === null) {
      cluster.child.kill('SIGTERM');
      await cluster.exited;
    }
    cluster = undefined;
    await receiver?.close();
    receiver = undefined;
    await bouncer?.close();
    bouncer = undefined;
    await schema?.drop();
    schema = undefined;
  });

  // Through a pooler too: the claims are transactions, which PgBouncer keeps on one server connection.
  it.for(ROUTES)(
    'two servers and --workers 2, $route: 300 writes → an event each, each delivered, none attempted twice at once',
    { timeout: 300_000 },
    async ({ mode }, context) => {
      if (mode && skipPooled) context.skip('needs PgBouncer');
      schema = await freshSchema();
      bouncer = mode && (await startPgbouncer(mode));
      const url = bouncer ? bouncer.through(schema.url) : schema.url;
      receiver = await startFleetReceiver();
      // A moment in flight each, so that two processes attempting one id at once would overlap at the receiver.
      receiver.answer = () => new Promise((resolve) => setTimeout(() => resolve(204), 5));
      servers = await startServers(url, 2);
      cluster = startCli([
        ...['--store', url, '--workers', '2', '--port', '0', '--quiet'],
        ...['--demo-client-id', DEMO.clientId, '--demo-client-secret', DEMO.clientSecret],
      ]);
      const origins = [
        ...servers.map((server) => server.origin),
        (await cluster.waitFor(/listening on (http:\/\/\S+)/))[1]!,
      ];
      const token = await adminToken(origins[0]!);
      const endpoint = await call(origins[1]!, token, '/webhook_endpoints', {
        method: 'POST',
        json: { url: receiver.url, events: ['template.created', 'template.updated'] },
      });
      expect(endpoint.status).toBe(201);

      const started = performance.now();
      const ids: string[] = [];
      const statuses: Record<number, number> = {};
      /** Writes `from` to `to` (excluded), PARALLEL at a time, write `i` on origin `i` modulo their number. */
      const writes = async (from: number, to: number) => {
        let next = from;
        const writer = async () => {
          for (let i = next++; i < to; i = next++) {
            const origin = origins[i % origins.length]!;
            const created = i < CREATED;
            const { status, doc } = created
              ? await call(origin, token, '/themes/1/templates', {
                  method: 'POST',
                  json: { file_name: `fleet-hooks/${i}.html`, body: `<p>${i}</p>` },
                })
              : await call(origin, token, `/themes/1/templates/${ids[i % CREATED]}`, {
                  method: 'PUT',
                  json: { body: `<p>${i}</p>` },
                });
            statuses[status] = (statuses[status] ?? 0) + 1;
            if (created) ids[i] = doc.id;
          }
        };
        await Promise.all(Array.from({ length: PARALLEL }, writer));
      };
      // The first CREATED writes create templates; the rest update them.
      await writes(0, CREATED);
      await writes(CREATED, WRITES);
      const written = performance.now() - started;
      expect(statuses).toEqual({ 201: CREATED, 200: WRITES - CREATED });

      await until(() => receiver!.distinct().size >= WRITES, 60_000, `${WRITES} distinct deliveries`).catch((error) => {
        for (const server of [...servers.map((s) => s.cli), cluster!]) console.error(server.stderr());
        throw error;
      });
      const delivered = performance.now() - started;
      // Attempts still recorded after their answer: let the last writes land.
      await until(
        async () => ((await attemptsByStatus(schema!.url, schema!.schema)).pending ?? 0) === 0,
        10_000,
        'no attempt pending',
      );

      const events = (await allEvents(origins[2]!, token)).filter((event) => event.type.startsWith('template.'));
      const eventIds = new Set(events.map((event) => event.id));
      const received = receiver.distinct();
      const duplicates = receiver.arrivals.length - received.size;
      const attempts = await attemptsByStatus(schema.url, schema.schema);
      console.log(
        `webhooks across processes (2 servers + --workers 2, one schema, ${mode ?? 'direct'}): ${WRITES} writes in ${written.toFixed(0)} ms → ` +
          `${events.length} template events (${eventIds.size} distinct), ${received.size} delivered, ` +
          `${receiver.arrivals.length} arrivals (${duplicates} duplicates, ${receiver.overlaps.length} concurrent), ` +
          `all delivered ${delivered.toFixed(0)} ms after the first write; attempts ${JSON.stringify(attempts)}`,
      );
      expect(events).toHaveLength(WRITES);
      expect(eventIds.size).toBe(WRITES);
      expect([...eventIds].filter((id) => !received.has(id))).toEqual([]);
      expect([...received].filter((id) => !eventIds.has(id))).toEqual([]);
      expect(receiver.overlaps).toEqual([]);
      // No process died: every event was attempted once.
      expect(duplicates).toBe(0);
      expect(attempts).toEqual({ succeeded: WRITES });
    },
  );

  it('repeats an attempt at most once when its process is killed mid-delivery, from the other process', async () => {
    schema = await freshSchema();
    receiver = await startFleetReceiver();
    servers = await startServers(schema.url, 2);
    const [a, b] = servers as [Server, Server];
    const token = await adminToken(a.origin);
    expect(
      (await call(a.origin, token, '/webhook_endpoints', { method: 'POST', json: { url: receiver.url } })).status,
    ).toBe(201);
    // The first arrival is held until its sender is gone; the next ones are answered.
    let release: (() => void) | undefined;
    const firstArrived = new Promise<void>((arrived) => {
      receiver!.answer = () => {
        if (receiver!.arrivals.length > 1) return 204;
        arrived();
        return new Promise<number>((resolve) => {
          release = () => resolve(204);
        });
      };
    });
    const write = await call(a.origin, token, '/themes/1/templates', {
      method: 'POST',
      json: { file_name: 'fleet-hooks/killed.html', body: '<p>killed</p>' },
    });
    expect(write.status).toBe(201);
    await firstArrived;
    // Which process holds the claim: the one whose claim connection holds an advisory lock.
    const db = await connect(schema.url);
    let holder: Server | undefined;
    try {
      const { rows } = await db.query<{ name: string }>(
        `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE 'storefront-server % claims'`,
      );
      expect(rows).toHaveLength(1);
      holder = servers.find((server) => rows[0]!.name === `${server.applicationName} claims`);
    } finally {
      await db.end();
    }
    expect(holder).toBeDefined();
    const other = holder === a ? b : a;
    const killedAt = performance.now();
    holder!.cli.child.kill('SIGKILL');
    await holder!.cli.exited;
    await until(() => receiver!.arrivals.length >= 2, 20_000, 'the attempt made again');
    const repeatedAfter = performance.now() - killedAt;
    release?.();
    await until(
      async () => ((await attemptsByStatus(schema!.url, schema!.schema)).succeeded ?? 0) === 1,
      10_000,
      'the attempt recorded',
    );
    // A moment more: nothing else comes.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [first, second] = receiver.arrivals;
    console.log(
      `killed mid-delivery: ${receiver.arrivals.length} arrivals of ${receiver.distinct().size} event, ` +
        `the repeat ${repeatedAfter.toFixed(0)} ms after the kill (by the process still running); ` +
        `attempts ${JSON.stringify(await attemptsByStatus(schema.url, schema.schema))}`,
    );
    expect(receiver.arrivals).toHaveLength(2);
    expect(second!.id).toBe(first!.id);
    expect(receiver.overlaps).toEqual([]);
    expect(other.cli.child.exitCode).toBeNull();
    expect(await attemptsByStatus(schema.url, schema.schema)).toEqual({ succeeded: 1 });
  }, 120_000);
});
