/**
 * A write runs under the write limits from its first statement to its last, its catch-up included: a reload of
 * every row inside a write (marks it did not apply were pruned) leaves no setup limits (minutes) in force for the
 * statements after it.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres.js';
import { newTemplate, template } from '../store/rows.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL write limit tests');

describe.skipIf(skip)('the limits of a write in PostgreSQL', () => {
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
    await db.query('ROLLBACK').catch(() => undefined);
    await db.end();
    await Promise.all(opened.map((store) => store.close()));
    await schema.drop();
  });

  async function open(): Promise<PostgresStore> {
    const store = await createPostgresStore(schema.url, {
      initial: () => ({ templates: ['1', '2', '3'].map((id) => template(id)) }),
    });
    opened.push(store);
    return store;
  }

  it('gives up waiting for a table lock after the write limit when its catch-up reloaded every row', async () => {
    const a = await open();
    const b = await open();
    // B deletes rows and prunes a mark at once (the highest id's stays): A, which applied neither, must reload
    // every row, inside its next write.
    await b.write((tx) => {
      tx.delete('templates', '1');
      tx.delete('templates', '2');
    });
    expect(await b.prune(0)).toBe(1);
    // Something else holds the templates table against writes (reads go on): A's write reloads, then waits to
    // write its row, as long as its lock limit allows.
    await db.query(`BEGIN; LOCK TABLE "${schema.schema}".templates IN EXCLUSIVE MODE`);
    const write = a.write((tx) => tx.insert('templates', newTemplate('1', 'blocked.html')));
    await expect(write).rejects.toThrow(/lock timeout/);
    await db.query('ROLLBACK');
    // It reloaded: the deletion it never saw is applied, and the next write goes through.
    expect(a.get('templates', '1')).toBeUndefined();
    expect((await a.write((tx) => tx.insert('templates', newTemplate('1', 'after.html')))).id).toBe('4');
  }, 30_000);
});
