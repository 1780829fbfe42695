/**
 * The marks deleted rows leave for other processes are removed once older than the age given
 * (`postgres-prune.ts`); a process that applied less reloads every row.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres.js';
import { newTemplate, template } from '../store/rows.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL pruning tests');

describe.skipIf(skip)('pruning the marks of deleted rows', () => {
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

  async function open(): Promise<PostgresStore> {
    const store = await createPostgresStore(schema.url, {
      initial: () => ({ templates: ['1', '2', '3', '4'].map((id) => template(id)) }),
    });
    opened.push(store);
    return store;
  }

  const marks = async () =>
    (
      await db.query<{ id: string }>(`SELECT id FROM "${schema.schema}".templates WHERE row IS NULL ORDER BY id`)
    ).rows.map((row) => row.id);
  const head = async () =>
    (await db.query<{ seq: string; pruned: string }>(`SELECT seq, pruned FROM "${schema.schema}".head`)).rows[0]!;

  it('removes the marks older than the age given, keeps the highest id, and that id is not handed out again', async () => {
    const a = await open();
    const b = await open();
    await a.write((tx) => {
      tx.delete('templates', '2');
      tx.delete('templates', '4');
    });
    await b.write((tx) => tx.delete('templates', '3'));
    expect(await marks()).toEqual(['2', '3', '4']);
    const deleted = Number((await head()).seq);
    // A minute old at most: they stay.
    expect(await a.prune(60_000)).toBe(0);
    expect(await marks()).toEqual(['2', '3', '4']);

    expect(await a.prune(0)).toBe(2);
    expect(await marks()).toEqual(['4']);
    expect(Number((await head()).pruned)).toBe(deleted);
    // Both applied every write: neither reloads, both go on.
    const { id } = await b.write((tx) => tx.insert('templates', newTemplate('1', 'after.html')));
    expect(id).toBe('5');
    await a.sync();
    expect(a.get('templates', id)).toBeDefined();
    // A process started now reads the kept mark: the next id stays above it.
    const c = await open();
    expect((await c.write((tx) => tx.insert('templates', newTemplate('1', 'later.html')))).id).toBe('6');
    expect(c.all('templates').map((row) => row.id)).toEqual(['1', '5', '6']);
  });

  it('reloads every row when marks it did not apply were pruned, within a write on its one connection', async () => {
    await open();
    const b = await createPostgresStore(schema.url, { connections: 1 });
    opened.push(b);
    // Another process's write that deleted template 2, its mark pruned since, announced to nobody (as to a
    // process that was stopped meanwhile).
    const tables = `"${schema.schema}"`;
    await db.query(
      `BEGIN; UPDATE ${tables}.head SET seq = seq + 1, pruned = seq + 1; DELETE FROM ${tables}.templates WHERE id = '2'; COMMIT`,
    );
    await b.write((tx) => tx.update('templates', '1', { body: 'after' }));
    expect(b.all('templates').map((row) => row.id)).toEqual(['1', '3', '4']);
    expect(b.get('templates', '1')!.body).toBe('after');
  });

  it('keeps the write limits after a reload within a write: a table lock is waited for 4 s, not minutes', async () => {
    const a = await open();
    const b = await open();
    // B deletes rows and prunes a mark at once (the highest id's stays): A, which applied neither, reloads every
    // row inside its next write.
    await b.write((tx) => {
      tx.delete('templates', '1');
      tx.delete('templates', '2');
    });
    expect(await b.prune(0)).toBe(1);
    // Something else holds the table against writes (reads go on): A's write reloads, then waits to write its
    // row as long as its lock limit allows.
    await db.query(`BEGIN; LOCK TABLE "${schema.schema}".templates IN EXCLUSIVE MODE`);
    try {
      await expect(a.write((tx) => tx.insert('templates', newTemplate('1', 'blocked.html')))).rejects.toThrow(
        /lock timeout/,
      );
    } finally {
      await db.query('ROLLBACK');
    }
    expect(a.get('templates', '1')).toBeUndefined();
    expect((await a.write((tx) => tx.insert('templates', newTemplate('1', 'after.html')))).id).toBe('5');
  }, 30_000);

  it('reloads on the next sync once marks it did not apply were pruned, and removes none while another process prunes', async () => {
    const a = await open();
    const b = await open();
    await a.write((tx) => tx.delete('templates', '2'));
    await a.write((tx) => tx.delete('templates', '3'));
    await db.query('BEGIN');
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`storefront-prune:${schema.schema}`]);
    expect(await a.prune(0)).toBe(0);
    await db.query('COMMIT');
    expect(await marks()).toEqual(['2', '3']);
    // B applied neither deletion: it reads the write counter, finds the marks pruned, and reloads.
    expect(await a.prune(0)).toBe(1);
    expect(b.get('templates', '2')).toBeDefined();
    await b.sync();
    expect(b.all('templates').map((row) => row.id)).toEqual(['1', '4']);
  });
});
