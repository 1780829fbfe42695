/**
 * Servers on one PostgreSQL schema as processes (two-processes.test.ts starts its own with these too), under a
 * steady load of writes, and what became of each write: what the fault tests (`faults.test.ts`, `restarts.test.ts`)
 * count afterwards.
 */
import pg from 'pg';
import { expect } from 'vitest';
import { type CliProcess, startCli } from '../helpers/cli-process.js';
import { tokenRequest } from '../helpers/test-server.js';

const DEMO: Demo = { clientId: 'fault-app', clientSecret: 'fault-secret-0123456789' };

/** The demo app's credentials, and the demo user's password when given. */
interface Demo {
  clientId: string;
  clientSecret: string;
  password?: string;
}

/** A `storefront-server --store <url>` process. */
export interface Server {
  cli: CliProcess;
  origin: string;
  /** Its connections' `application_name` in `pg_stat_activity`. */
  applicationName: string;
}

/** What the servers are started with: the demo app's credentials (and password) and how many products to seed. */
export interface ServerSetup {
  demo?: Demo;
  products?: number;
}

/** Starts `count` servers on `url`, one after the other (the first seeds). */
export async function startServers(url: string, count: number, setup: ServerSetup = {}): Promise<Server[]> {
  const { demo = DEMO, products = 3 } = setup;
  const servers: Server[] = [];
  for (let i = 0; i < count; i++) {
    const cli = startCli([
      ...['--store', url, '--port', '0', '--quiet', '--products', String(products)],
      ...['--demo-client-id', demo.clientId, '--demo-client-secret', demo.clientSecret],
      ...(demo.password === undefined ? [] : ['--demo-password', demo.password]),
    ]);
    const origin = (await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    servers.push({ cli, origin, applicationName: `storefront-server ${cli.child.pid}` });
  }
  return servers;
}

export async function stopServers(servers: readonly Server[]): Promise<void> {
  for (const { cli } of servers) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  await Promise.all(servers.map(({ cli }) => cli.exited));
}

export async function adminToken(origin: string): Promise<string> {
  const response = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, DEMO);
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** What the writes sent so far came to. */
export interface Outcomes {
  /** Created templates the server answered 201 for: id → file name. */
  acknowledged: Map<string, string>;
  /** Answers by status. */
  statuses: Record<number, number>;
  /** Requests that got no answer (a connection cut, a timeout). */
  cut: number;
  /** Failures of the writes that got no answer, and of 5xx answers other than 503: what the test shows. */
  errors: string[];
  /** `performance.now()` of each server's last 201, by origin. */
  lastAcknowledged: Map<string, number>;
}

/** Writes sent by this test process: each creates a file name of its own. */
let sent = 0;

/** Sends `writers` loops of template creations to each of `servers` until `stop()`; resolves once all ended. */
export function writeLoad(servers: readonly Server[], token: string, writers = 3) {
  const outcomes: Outcomes = { acknowledged: new Map(), statuses: {}, cut: 0, errors: [], lastAcknowledged: new Map() };
  let stopped = false;
  const loop = async (origin: string) => {
    while (!stopped) {
      const name = `load-${sent++}.html`;
      try {
        const response = await fetch(`${origin}/v1/themes/1/templates`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ file_name: name, body: `<p>${name}</p>` }),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        outcomes.statuses[response.status] = (outcomes.statuses[response.status] ?? 0) + 1;
        if (response.status === 201) {
          outcomes.acknowledged.set((JSON.parse(text) as { id: string }).id, name);
          outcomes.lastAcknowledged.set(origin, performance.now());
        } else if (response.status === 503) {
          expect(response.headers.get('retry-after')).toBe('1');
          // Retried after a moment, as Retry-After asks (shorter: the test wants to see recovery).
          await new Promise((resolve) => setTimeout(resolve, 100));
        } else {
          outcomes.errors.push(`${response.status} ${text}`);
        }
      } catch (error) {
        outcomes.cut++;
        outcomes.errors.push(String(error));
      }
    }
  };
  const running = Promise.all(servers.flatMap(({ origin }) => Array.from({ length: writers }, () => loop(origin))));
  return {
    outcomes,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** Resolves once every server acknowledged a write after `since` (`performance.now()`); the ms that took. */
export async function answeringAgain(servers: readonly Server[], outcomes: Outcomes, since: number): Promise<number> {
  for (;;) {
    if (servers.every(({ origin }) => (outcomes.lastAcknowledged.get(origin) ?? 0) > since)) {
      return performance.now() - since;
    }
    const exited = servers.find(({ cli }) => cli.child.exitCode !== null || cli.child.signalCode !== null);
    if (exited) throw new Error(`a server exited:\n${exited.cli.stderr()}`);
    if (performance.now() - since > 60_000) throw new Error('the servers did not take writes again within a minute');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The acknowledged creations the schema does not hold (as a new process would load them). */
export async function lostWrites(url: string, schema: string, outcomes: Outcomes): Promise<string[]> {
  const base = new URL(url);
  base.searchParams.delete('schema');
  const db = new pg.Client({ connectionString: base.href });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string; name: string }>(
      `SELECT id, row->>'file_name' AS name FROM "${schema}".templates WHERE row IS NOT NULL`,
    );
    const held = new Map(rows.map((row) => [row.id, row.name]));
    return [...outcomes.acknowledged].filter(([id, name]) => held.get(id) !== name).map(([id]) => id);
  } finally {
    await db.end();
  }
}

/**
 * The load's writes and their events that do not pair up, as a new process would load them: a template created by
 * the load without exactly one `template.created` event of its name, or such an event without its template.
 */
export async function unpairedEvents(url: string, schema: string): Promise<string[]> {
  const base = new URL(url);
  base.searchParams.delete('schema');
  const db = new pg.Client({ connectionString: base.href });
  await db.connect();
  try {
    const { rows: templates } = await db.query<{ name: string }>(
      `SELECT row->>'file_name' AS name FROM "${schema}".templates WHERE row->>'file_name' LIKE 'load-%'`,
    );
    const { rows: events } = await db.query<{ name: string }>(
      `SELECT row->'data'->>'file_name' AS name FROM "${schema}".events
       WHERE row->>'type' = 'template.created' AND row->'data'->>'file_name' LIKE 'load-%'`,
    );
    const count = new Map<string, number>();
    for (const { name } of events) count.set(name, (count.get(name) ?? 0) + 1);
    const unpaired = templates
      .filter(({ name }) => count.get(name) !== 1)
      .map(({ name }) => `${name}: ${count.get(name) ?? 0} events`);
    const written = new Set(templates.map(({ name }) => name));
    for (const name of count.keys()) if (!written.has(name)) unpaired.push(`${name}: an event without its template`);
    return unpaired;
  } finally {
    await db.end();
  }
}

/** A plain connection to the database of `url`, for the test's own queries. */
export async function connect(url: string): Promise<pg.Client> {
  const base = new URL(url);
  base.searchParams.delete('schema');
  const db = new pg.Client({ connectionString: base.href });
  db.on('error', () => undefined);
  await db.connect();
  return db;
}
