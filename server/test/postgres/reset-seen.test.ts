/**
 * A store opened with `reset` (an import's `--replace`, `storefront-server --reset`) deletes every row, which leaves
 * no marks: a server that has the schema open must still see the replace through the one freshness rule, reloading
 * rather than keeping (and later writing back) rows that are gone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres.js';
import { newTemplate, template } from '../store/rows.js';

describe.skipIf(skipWithout(POSTGRES, 'The PostgreSQL reset tests'))('a reset while another process serves', () => {
  let schema: FreshSchema;
  let opened: PostgresStore[];

  beforeEach(async () => {
    schema = await freshSchema();
    opened = [];
  });
  afterEach(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await schema.drop();
  });

  it('is seen by the next sync of the other process: the rows it deleted go, a later write does not bring them back', async () => {
    const serving = await createPostgresStore(schema.url, { initial: () => ({ templates: [template('1')] }) });
    opened.push(serving);
    await serving.write((tx) => tx.insert('templates', newTemplate('1', 'made-through-the-api.html')));
    expect(serving.all('templates')).toHaveLength(2);

    const replacing = await createPostgresStore(schema.url, {
      initial: () => ({ templates: [template('7', '1', 'imported')] }),
      reset: true,
    });
    await replacing.close();

    await serving.sync();
    expect(serving.all('templates').map((row) => [row.id, row.body])).toEqual([['7', 'imported']]);
    await serving.write((tx) => tx.update('templates', '7', { body: 'edited' }));
    const reopened = await createPostgresStore(schema.url);
    opened.push(reopened);
    expect(reopened.all('templates').map((row) => [row.id, row.body])).toEqual([['7', 'edited']]);
  });
});
