/**
 * What the database does to two servers on one schema under writes: their connections terminated
 * (`pg_terminate_backend`, as a failover or an idle-session reaper does), one of them stopped (SIGSTOP) inside a
 * write or while idle. Afterwards every acknowledged write is in the database, no request got a 500 or a cut
 * connection, and both processes still run.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import {
  adminToken,
  answeringAgain,
  connect,
  lostWrites,
  type Server,
  startServers,
  stopServers,
  unpairedEvents,
  writeLoad,
} from './write-load.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL fault tests');

describe.skipIf(skip)('two servers on one schema, and the faults of a database', () => {
  let schema: FreshSchema;
  let servers: Server[];
  let token: string;
  let db: pg.Client;

  beforeAll(async () => {
    schema = await freshSchema();
    servers = await startServers(schema.url, 2);
    token = await adminToken(servers[0]!.origin);
    db = await connect(schema.url);
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await stopServers(servers ?? []);
    await schema?.drop();
  });

  const post = (origin: string, name: string) =>
    fetch(`${origin}/v1/themes/1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ file_name: name, body: '<p></p>' }),
    });

  /** `state` of each connection the server has open. */
  const sessions = async ({ applicationName }: Server) =>
    (
      await db.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE application_name = $1', [
        applicationName,
      ])
    ).rows.map((row) => row.state);

  it('loses no acknowledged write and stays up through 15 rounds of pg_terminate_backend under writes', async () => {
    const load = writeLoad(servers, token);
    const recoveries: number[] = [];
    try {
      for (let round = 0; round < 15; round++) {
        await answeringAgain(servers, load.outcomes, performance.now());
        const { rows } = await db.query<{ ended: boolean }>(
          'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = ANY($1)',
          [servers.map((server) => server.applicationName)],
        );
        expect(rows.length).toBeGreaterThan(0);
        recoveries.push(await answeringAgain(servers, load.outcomes, performance.now()));
      }
    } finally {
      await load.stop();
    }
    const { outcomes } = load;
    expect({ errors: outcomes.errors, cut: outcomes.cut }).toEqual({ errors: [], cut: 0 });
    expect(Object.keys(outcomes.statuses).sort()).toEqual(expect.arrayContaining(['201']));
    expect(Object.keys(outcomes.statuses).filter((status) => status !== '201' && status !== '503')).toEqual([]);
    expect(Math.max(...recoveries)).toBeLessThan(10_000);
    expect(servers.map(({ cli }) => cli.child.exitCode)).toEqual([null, null]);
    expect(await lostWrites(schema.url, schema.schema, outcomes)).toEqual([]);
    // Each write and its event commit together: none without the other.
    expect(await unpairedEvents(schema.url, schema.schema)).toEqual([]);
  }, 300_000);

  it('holds up the other server’s write at most 5 s while a server is stopped inside a write', async () => {
    const [a, b] = servers as [Server, Server];
    const load = writeLoad([b], token, 2);
    let waited: number | undefined;
    try {
      // Stopped until it is caught with its transaction open (idle in it: the process does not send the next statement).
      for (let tries = 0; waited === undefined && tries < 50; tries++) {
        await answeringAgain([b], load.outcomes, performance.now());
        b.cli.child.kill('SIGSTOP');
        try {
          if (!(await sessions(b)).includes('idle in transaction')) continue;
          const started = performance.now();
          const write = await post(a.origin, `while-b-stopped-${tries}.html`);
          waited = performance.now() - started;
          expect(write.status).toBe(201);
          // The database rolled back B's transaction; B still holds a connection or not, but no transaction.
          expect(await sessions(b)).not.toContain('idle in transaction');
        } finally {
          b.cli.child.kill('SIGCONT');
        }
      }
      expect(waited).toBeDefined();
      expect(waited).toBeLessThanOrEqual(5000);
      // B takes writes again, through a connection of its own.
      await answeringAgain([b], load.outcomes, performance.now());
    } finally {
      await load.stop();
    }
    expect({ errors: load.outcomes.errors, cut: load.outcomes.cut }).toEqual({ errors: [], cut: 0 });
    expect(await lostWrites(schema.url, schema.schema, load.outcomes)).toEqual([]);
    expect(b.cli.child.exitCode).toBe(null);
  }, 300_000);

  it('answers every write within 500 ms while the other server is stopped idle', async () => {
    const [a, b] = servers as [Server, Server];
    // B's connections opened again after the test before (its transaction was ended there), before the clock runs.
    expect((await post(b.origin, 'before-a-stopped.html')).status).toBe(201);
    a.cli.child.kill('SIGSTOP');
    const times: number[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        expect((await post(b.origin, `while-a-idle-${i}.html`)).status).toBe(201);
        times.push(performance.now() - started);
      }
    } finally {
      a.cli.child.kill('SIGCONT');
    }
    expect(Math.max(...times)).toBeLessThanOrEqual(500);
  }, 60_000);
});
