/**
 * `startSandbox()` on PostgreSQL: in this process, or as `storefront-server --workers 2` in a child process; on a
 * schema of its own, dropped when it stops, or on a named one, seeded afresh and kept.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES, postgresUrl } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { type RunningSandbox, StoreError, startSandbox } from '../../src/index.js';
import { tokenRequest } from '../helpers/test-server.js';

const skip = skipWithout(POSTGRES, 'The tests of startSandbox on PostgreSQL');
const ORPHAN_CHILD = fileURLToPath(new URL('./sandbox-orphan-child.ts', import.meta.url));

describe.skipIf(skip)('startSandbox on PostgreSQL', () => {
  let database: string;
  let client: pg.Client;
  beforeAll(async () => {
    database = await postgresUrl();
    client = new pg.Client({ connectionString: database });
    await client.connect();
  });
  afterAll(() => client?.end());

  const schemas = async () =>
    (await client.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace`)).rows.map((row) => row.name);
  const products = async (schema: string) =>
    Number((await client.query(`SELECT count(*) AS n FROM "${schema}".products`)).rows[0].n);

  /** The schema a sandbox serves, from its connection: the one new `sandbox_` schema. */
  async function servedSchema(before: string[]): Promise<string> {
    const added = (await schemas()).filter((name) => !before.includes(name) && name.startsWith('sandbox_'));
    expect(added).toHaveLength(1);
    return added[0]!;
  }

  async function signsIn(sandbox: RunningSandbox): Promise<void> {
    const response = await tokenRequest(
      sandbox.origin,
      {
        grant_type: 'password',
        scope: 'admin',
        username: sandbox.credentials.login,
        password: sandbox.credentials.password!,
      },
      sandbox.credentials,
    );
    expect(response.status).toBe(200);
  }

  it('serves a schema of its own in this process, dropped by stop()', async () => {
    const before = await schemas();
    const sandbox = await startSandbox({ store: database, products: 7 });
    const schema = await servedSchema(before);
    try {
      expect(await products(schema)).toBe(7);
      expect(sandbox.baseUrl).toBe(`${sandbox.origin}/v1`);
      await signsIn(sandbox);
      await sandbox.control.snapshots.take('here');
      expect((await sandbox.control.snapshots.list()).map((s) => s.name)).toEqual(['here']);
    } finally {
      await sandbox.stop();
    }
    expect(await schemas()).not.toContain(schema);
    await expect(fetch(`${sandbox.baseUrl}/`)).rejects.toThrow(TypeError);
  });

  it('seeds a named schema afresh and keeps it', async () => {
    const schema = `named_${process.pid}_${Date.now().toString(36)}`;
    try {
      const first = await startSandbox({ store: database, schema, products: 3 });
      await first.stop();
      const second = await startSandbox({ store: `${database}?schema=${schema}`, products: 5 });
      await second.stop();
      expect(await schemas()).toContain(schema);
      expect(await products(schema)).toBe(5);
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  }, 60_000);

  it('with workers: 2, runs storefront-server --workers 2 and stops it cleanly', async () => {
    const before = await schemas();
    const sandbox = await startSandbox({ store: database, workers: 2, products: 4, tokenTtl: 120 });
    const schema = await servedSchema(before);
    try {
      expect(await products(schema)).toBe(4);
      await signsIn(sandbox);
      const grant = await tokenRequest(sandbox.origin, { grant_type: 'client_credentials' }, sandbox.credentials);
      expect(((await grant.json()) as { expires_in: number }).expires_in).toBe(120);
      // Each on a connection of its own, so that both workers answer: each takes the token the sandbox gave.
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () =>
          fetch(`${sandbox.connection.url}/snapshots`, {
            headers: { authorization: `Bearer ${sandbox.connection.token}`, connection: 'close' },
          }).then((response) => response.status),
        ),
      );
      expect(new Set(statuses)).toEqual(new Set([200]));
    } finally {
      await sandbox.stop();
    }
    expect(await schemas()).not.toContain(schema);
    await expect(fetch(`${sandbox.baseUrl}/`)).rejects.toThrow(TypeError);
  }, 90_000);

  it('with workers: 2, stops the fleet and drops its schema when the process that started it is killed', async () => {
    const before = await schemas();
    const child = spawn(process.execPath, ['--import', 'tsx', ORPHAN_CHILD, database], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
      const { origin } = JSON.parse(line) as { origin: string };
      const schema = await servedSchema(before);
      expect((await fetch(`${origin}/v1/`)).status).toBe(401);
      // Its default action: no handler of the runner's own runs, nor does an `exit` handler.
      child.kill('SIGTERM');
      await exited;
      const gone = async () => {
        const answering = await fetch(`${origin}/v1/`).then(
          () => true,
          () => false,
        );
        return !answering && !(await schemas()).includes(schema);
      };
      const deadline = performance.now() + 30_000;
      while (!(await gone()) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await gone()).toBe(true);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 90_000);

  it('refuses options that cannot hold, before anything starts', async () => {
    const before = await schemas();
    await expect(startSandbox({ workers: 2 })).rejects.toThrow(/workers above 1 need store/);
    await expect(startSandbox({ store: database, workers: 0 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ store: database, workers: 1.5 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ store: 'mysql://localhost/x' })).rejects.toThrow(/postgres:\/\/ URL/);
    await expect(startSandbox({ schema: 'alone' })).rejects.toThrow(/schema needs store/);
    await expect(startSandbox({ store: database, schema: 'Not-A-Name' })).rejects.toThrow(StoreError);
    await expect(
      startSandbox({ store: database, workers: 2, demo: { redirectUris: ['http://localhost:3000/cb'] } }),
    ).rejects.toThrow(/give redirectUris/);
    // Nothing created of what these calls would make (other files' schemas come and go meanwhile: the database is
    // shared).
    const made = (name: string) => name.startsWith('sandbox_') || name === 'alone' || name === 'Not-A-Name';
    expect((await schemas()).filter((name) => !before.includes(name) && made(name))).toEqual([]);
  });
});
