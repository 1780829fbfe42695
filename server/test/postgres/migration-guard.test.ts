/**
 * Migration 5 drops the `processes` table servers of versions 3 and 4 write to: it is refused, naming them, while
 * any runs on the schema (its row's connection open, or its lease running), and applied once they are gone.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore } from '../../src/store/postgres/postgres.js';
import { migrateSchema, SCHEMA_VERSION } from '../../src/store/postgres/postgres-schema.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL migration guard tests');

describe.skipIf(skip)('a migration that breaks older servers', () => {
  let schema: FreshSchema;
  let db: pg.Client;

  beforeEach(async () => {
    schema = await freshSchema();
    db = new pg.Client({ connectionString: schema.url.replace(/\?.*/, '') });
    await db.connect();
    // The schema as servers of version 4 left it.
    expect(await migrateSchema(db, schema.schema, 4)).toEqual([1, 2, 3, 4]);
  });
  afterEach(async () => {
    await db.end();
    await schema.drop();
  });

  const version = async () =>
    (await db.query<{ v: number }>(`SELECT max(version) AS v FROM "${schema.schema}".migrations`)).rows[0]!.v;

  /** A version-4 server's row: its listening connection `backend`, its lease running `leaseMs` more. */
  const register = (id: string, backend: number, leaseMs: number) =>
    db.query(
      `INSERT INTO "${schema.schema}".processes (id, backend, lease_until, seen, schema_version)
       VALUES ($1, $2, now() + $3 * interval '1 millisecond', 0, 4)`,
      [id, backend, leaseMs],
    );

  it('is refused while a server of version 4 is connected, and applied once it is gone', async () => {
    const old = new pg.Client({ connectionString: schema.url.replace(/\?.*/, '') });
    await old.connect();
    const backend = (await old.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    // Its lease ran out (its renewals stopped), but its connection is open: it may still write.
    await register('old-a', backend, -60_000);
    // One that died long ago: no connection, no lease. It does not count.
    await register('dead', 2_147_483_000, -3_600_000);
    try {
      await expect(createPostgresStore(schema.url)).rejects.toThrow(
        new RegExp(
          `needs migration 5 .* breaks the servers of version 4 still running on it: 1 \\(old-a \\(backend ${backend}\\)\\)\\. Stop them`,
        ),
      );
      expect(await version()).toBe(4);
    } finally {
      await old.end();
    }
    const store = await createPostgresStore(schema.url);
    await store.close();
    expect(await version()).toBe(SCHEMA_VERSION);
  });

  it('is refused while a server of version 4 holds a lease, though its connection is gone', async () => {
    await register('old-b', 2_147_483_000, 60_000);
    await expect(createPostgresStore(schema.url)).rejects.toThrow(/old-b/);
    await db.query(`UPDATE "${schema.schema}".processes SET lease_until = now() - interval '1 second'`);
    const store = await createPostgresStore(schema.url);
    await store.close();
    expect(await version()).toBe(SCHEMA_VERSION);
  });
});
