/**
 * The control API's reset on `storefront-server --workers 2 --control` over PostgreSQL goes back to the data the
 * fleet started with, whichever worker answers it, a worker restarted after `kill -9` included: the baseline is
 * the fleet's, kept in the database by its first worker, not captured by each worker at its own start.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { type CliProcess, startCli } from '../helpers/cli-process.js';

const skip = skipWithout(POSTGRES, 'The fleet baseline test');
const TOKEN = 'baseline-token-0123456789';
const PRODUCTS = 3;

describe.skipIf(skip)('a reset through a fleet of two workers, one restarted', () => {
  let schema: FreshSchema;
  let cli: CliProcess | undefined;
  let db: pg.Client;

  beforeAll(async () => {
    schema = await freshSchema();
    db = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, '') });
    await db.connect();
  });
  afterAll(async () => {
    if (cli && cli.child.exitCode === null) {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
    await db?.end();
    await schema?.drop();
  });

  /** A control call on a connection of its own, so that either worker may answer it. */
  const control = async (origin: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}/_sandbox${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        connection: 'close',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
  };
  const products = async () =>
    Number((await db.query(`SELECT count(*) AS n FROM "${schema.schema}".products WHERE row IS NOT NULL`)).rows[0].n);

  it('gives the seeded products back at every reset, after a product was added before the restart', async () => {
    cli = startCli(
      ['--store', schema.url, '--workers', '2', '--port', '0', '--products', String(PRODUCTS), '--control'],
      { env: { STOREFRONT_CONTROL_TOKEN: TOKEN } },
    );
    const [victim] = (await cli.waitFor(/2 workers listening \(pids (\d+), (\d+)\)/)).slice(1).map(Number);
    const origin = (await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    const shop = (
      await db.query<{ subdomain: string }>(`SELECT row->>'subdomain' AS subdomain FROM "${schema.schema}".shops`)
    ).rows[0]!.subdomain;
    await control(origin, 'POST', '/reset');
    expect(await products()).toBe(PRODUCTS);
    await control(origin, 'POST', '/products', { shop, title: 'Before the restart', price: 5 });
    expect(await products()).toBe(PRODUCTS + 1);
    process.kill(victim!, 'SIGKILL');
    await cli.waitFor(
      new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting another[\\s\\S]*?worker \\d+ listening`),
    );
    const counts: number[] = [];
    for (let round = 0; round < 12; round++) {
      await control(origin, 'POST', '/reset');
      counts.push(await products());
      await control(origin, 'POST', '/products', { shop, title: `Round ${round}`, price: 5 });
    }
    expect(counts).toEqual(Array.from({ length: 12 }, () => PRODUCTS));
    // The baseline is kept among the snapshots, and listed by neither worker.
    expect((await db.query(`SELECT name FROM "${schema.schema}".snapshots`)).rows.map((r) => r.name)).toEqual([
      ':start',
    ]);
    for (let round = 0; round < 4; round++) {
      const listed = await fetch(`${origin}/_sandbox/snapshots`, {
        headers: { authorization: `Bearer ${TOKEN}`, connection: 'close' },
      });
      expect(await listed.json()).toMatchObject({ snapshots: [] });
    }
  }, 120_000);
});
