/**
 * Many rows at once (a seed, `migrate`): statements are cut by bytes as well as rows, and the order is kept; a start
 * reads them back in parts of 16 MB (one row of 20 MB each here), in their order.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore } from '../../src/store/postgres/postgres.js';
import { file } from '../store/rows.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL bulk write test');

describe.skipIf(skip)('writing many large rows at once', () => {
  let schema: FreshSchema;
  beforeEach(async () => {
    schema = await freshSchema();
  });
  afterEach(async () => {
    await schema.drop();
  });

  it('cuts its statements at 64 MB of rows, and keeps their order, read back in parts', async () => {
    // 5 × 20 MB: more than the 64 MB cut of one statement.
    const files = Array.from({ length: 5 }, (_, i) => file(`f${i}`, String(i).repeat(20 * 1024 * 1024)));
    const seeded = await createPostgresStore(schema.url, { initial: () => ({ files }) });
    await seeded.close();
    const reopened = await createPostgresStore(schema.url);
    try {
      expect(reopened.all('files').map((row) => [row.id, row.data.length, row.data[0]])).toEqual(
        files.map((row, i) => [row.id, 20 * 1024 * 1024, String(i)]),
      );
    } finally {
      await reopened.close();
    }
  }, 60_000);
});
