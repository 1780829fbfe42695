/**
 * Migration 6 (events, webhook endpoints, delivery attempts) on a schema a version-5 server left, its data kept;
 * and pruning the marks of those tables' deleted rows like any other's.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres.js';
import { migrateSchema } from '../../src/store/postgres/postgres-schema.js';
import { delivery, newDelivery, newTemplate, template } from '../store/rows.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL webhook table tests');
const WEBHOOK_TABLES = ['events', 'webhook_endpoints', 'webhook_deliveries'];

/** A new attempt, as the store takes it (its id from the table's sequence). */
describe.skipIf(skip)('the webhook tables in PostgreSQL', () => {
  let schema: FreshSchema;
  let opened: PostgresStore[];
  let db: pg.Client;

  beforeEach(async () => {
    schema = await freshSchema();
    opened = [];
    db = new pg.Client({ connectionString: schema.url.replace(/\?.*/, '') });
    await db.connect();
  });
  afterEach(async () => {
    await db.end();
    await Promise.all(opened.map((store) => store.close()));
    await schema.drop();
  });

  async function open(initial = {}): Promise<PostgresStore> {
    const store = await createPostgresStore(schema.url, { initial: () => initial });
    opened.push(store);
    return store;
  }

  const tables = async () =>
    (
      await db.query<{ name: string }>(
        'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
        [schema.schema],
      )
    ).rows.map((row) => row.name);

  it('applies migration 6 to a schema at version 5, keeping its data; two processes then share the new tables', async () => {
    const old = await open({ templates: ['1', '2'].map((id) => template(id)) });
    await old.write((tx) => tx.delete('templates', '2'));
    await old.close();
    opened = [];
    // What a version-5 server leaves: migrations 6 to 8 only added tables (7 and 8 the sandbox's).
    const quoted = `"${schema.schema}"`;
    const later = [
      ...WEBHOOK_TABLES,
      'snapshots',
      'idempotency_keys',
      'rate_limits',
      'fault_rules',
      'sandbox_settings',
      'request_journal',
    ];
    await db.query(
      `${later.map((name) => `DROP TABLE ${quoted}.${name}`).join('; ')}; DELETE FROM ${quoted}.migrations WHERE version >= 6`,
    );
    expect(await tables()).not.toContain('events');
    const migrating = new pg.Client({ connectionString: schema.url.replace(/\?.*/, '') });
    await migrating.connect();
    try {
      expect(await migrateSchema(migrating, schema.schema)).toEqual([6, 7, 8, 9, 10]);
      expect(await migrateSchema(migrating, schema.schema)).toEqual([]);
    } finally {
      await migrating.end();
    }
    expect(await tables()).toEqual(expect.arrayContaining(WEBHOOK_TABLES));
    const a = await open();
    expect(a.created).toBe(false);
    expect(a.all('templates').map((row) => row.id)).toEqual(['1']);
    // The deletion's mark was kept: its id is not handed out again.
    expect((await a.write((tx) => tx.insert('templates', newTemplate('1', 'after.html')))).id).toBe('3');
    const b = await open();
    await a.write((tx) => tx.insert('webhook_deliveries', newDelivery()));
    await b.sync();
    expect(b.all('webhook_deliveries')).toHaveLength(1);
    const claim = await b.claim('webhook_deliveries', b.all('webhook_deliveries')[0]!.id);
    expect(claim?.row?.status).toBe('pending');
    await claim!.release();
  });

  it('prunes the marks of deleted delivery attempts like any other table’s, keeping the highest id', async () => {
    const a = await open({ webhook_deliveries: ['1', '2', '3'].map(delivery) });
    const b = await open();
    await a.write((tx) => {
      tx.delete('webhook_deliveries', '1');
      tx.delete('webhook_deliveries', '2');
    });
    const marks = async () =>
      (
        await db.query<{ id: string }>(
          `SELECT id FROM "${schema.schema}".webhook_deliveries WHERE row IS NULL ORDER BY id`,
        )
      ).rows.map((row) => row.id);
    expect(await marks()).toEqual(['1', '2']);
    expect(await a.prune(0)).toBe(1);
    expect(await marks()).toEqual(['2']);
    await b.sync();
    expect(b.all('webhook_deliveries').map((row) => row.id)).toEqual(['3']);
    const { id } = await b.write((tx) => tx.insert('webhook_deliveries', newDelivery()));
    expect(id).toBe('4');
  });
});
