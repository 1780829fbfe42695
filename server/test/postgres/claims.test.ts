/**
 * `claim` in the PostgreSQL store (`postgres-claims.ts`): a row held by one process is refused to every other
 * until released, or until the holder's connection ends; the claim reads the row as committed; the holder's own
 * write of the row goes through while it holds it; attempts in flight do not take the store's connections. Connected
 * directly, and through a real PgBouncer in each pooling mode.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PGBOUNCER, type Pgbouncer, ROUTES, startPgbouncer } from '../../../test/support/pgbouncer-server.js';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres.js';
import { delivery } from '../store/rows.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL claim tests');
const skipPooled = skip || skipWithout(PGBOUNCER, 'The PostgreSQL claim tests through PgBouncer');

describe.each(ROUTES)('claims in the PostgreSQL store, $route', ({ mode }) => {
  if (mode ? skipPooled : skip) {
    it.skip('needs PostgreSQL (and PgBouncer)');
    return;
  }
  let bouncer: Pgbouncer | undefined;
  let schema: FreshSchema;
  let opened: PostgresStore[];
  let warnings: string[];

  beforeAll(async () => {
    bouncer = mode && (await startPgbouncer(mode));
  });
  afterAll(async () => {
    await bouncer?.close();
  });
  beforeEach(async () => {
    schema = await freshSchema();
    opened = [];
    warnings = [];
  });
  afterEach(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await schema.drop();
  });

  async function open(connections?: number, holdMs?: number): Promise<PostgresStore> {
    const store = await createPostgresStore(bouncer ? bouncer.through(schema.url) : schema.url, {
      initial: () => ({ webhook_deliveries: ['1', '2', '3'].map(delivery) }),
      warn: (line) => warnings.push(line),
      claims: { connections, holdMs },
    });
    opened.push(store);
    return store;
  }

  it('holds a row against another process until released, and shows it as the holder committed it', async () => {
    const a = await open();
    const b = await open();
    const held = await a.claim('webhook_deliveries', '1');
    expect(held?.row?.status).toBe('pending');
    expect(await b.claim('webhook_deliveries', '1')).toBeUndefined();
    // Another row, or another collection with the same id, is not held.
    const other = await b.claim('webhook_deliveries', '2');
    expect(other?.row?.id).toBe('2');
    await other!.release();
    const missing = await b.claim('events', '1');
    expect(missing).toBeDefined();
    expect(missing!.row).toBeUndefined();
    await missing!.release();
    // The holder records the outcome through its write path (another connection) while it holds the claim.
    await a.write((tx) => tx.update('webhook_deliveries', '1', { status: 'succeeded', due_at: null }));
    expect(await b.claim('webhook_deliveries', '1')).toBeUndefined();
    await held!.release();
    // B has not caught up (no sync): the claim's row is the database's, not B's memory.
    expect(b.get('webhook_deliveries', '1')?.status).toBe('pending');
    const after = await b.claim('webhook_deliveries', '1');
    expect(after?.row?.status).toBe('succeeded');
    await after!.release();
    expect(warnings).toEqual([]);
  });

  it('lets another process take the row once the holder’s connection ends', async () => {
    const a = await open();
    const b = await open();
    const held = await a.claim('webhook_deliveries', '3');
    expect(held).toBeDefined();
    const db = new pg.Client({ connectionString: schema.url.replace(/\?.*/, '') });
    await db.connect();
    try {
      // What a killed process's connection comes to: the database ends the session, its transaction and lock.
      const { rows } = await db.query(
        `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.granted AND s.application_name = $1`,
        [`storefront-server ${process.pid} claims`],
      );
      expect(rows).toHaveLength(1);
    } finally {
      await db.end();
    }
    let taken: Awaited<ReturnType<PostgresStore['claim']>>;
    for (let i = 0; i < 50 && !taken; i++) {
      taken = await b.claim('webhook_deliveries', '3');
      if (!taken) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(taken?.row?.id).toBe('3');
    await taken!.release();
    // The holder learns it when it releases: a rejection, and a line in the log.
    await expect(held!.release()).rejects.toThrow();
    expect(warnings.join('\n')).toMatch(/claim of webhook_deliveries 3/);
  });

  it('lets another process take the row once the holder stayed idle past the hold time (a stopped process)', async () => {
    const a = await open(undefined, 300);
    const b = await open();
    const held = await a.claim('webhook_deliveries', '2');
    expect(await b.claim('webhook_deliveries', '2')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 800));
    const taken = await b.claim('webhook_deliveries', '2');
    expect(taken?.row?.id).toBe('2');
    await taken!.release();
    await expect(held!.release()).rejects.toThrow();
  });

  it('keeps the store’s connections for writes while every claim connection is held', async () => {
    const a = await open(2);
    const held = await Promise.all(['1', '2'].map((id) => a.claim('webhook_deliveries', id)));
    const started = performance.now();
    await a.write((tx) => tx.update('webhook_deliveries', '3', { attempt: 2 }));
    expect(performance.now() - started).toBeLessThan(2000);
    await Promise.all(held.map((claim) => claim!.release()));
  });

  it('rejects, and says so, when the database refuses the claim', async () => {
    const a = await open();
    const db = new pg.Client({ connectionString: schema.url.replace(/\?.*/, '') });
    await db.connect();
    try {
      await db.query(`ALTER TABLE "${schema.schema}".events RENAME TO events_gone`);
      await expect(a.claim('events', '1')).rejects.toThrow(/events/);
      await db.query(`ALTER TABLE "${schema.schema}".events_gone RENAME TO events`);
    } finally {
      await db.end();
    }
    expect(warnings.join('\n')).toMatch(/cannot claim events 1/);
    const again = await a.claim('events', '1');
    expect(again).toBeDefined();
    await again!.release();
  });
});
