/** The failed-login counts the processes of a PostgreSQL store share (`login_failures`). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL failed-login counts');
const FORGET_MS = 60_000;

describe.skipIf(skip)('failed-login counts in PostgreSQL', () => {
  let schema: FreshSchema;
  let store: PostgresStore;
  beforeEach(async () => {
    schema = await freshSchema();
    store = await createPostgresStore(schema.url);
  });
  afterEach(async () => {
    await store.close();
    await schema.drop();
  });

  it('counts failures per key, from one again past the forget time, and clears a key', async () => {
    const failures = store.failures!;
    const now = Date.now();
    expect(await failures.fail('login', now, FORGET_MS)).toEqual({ failures: 1, last: now });
    expect(await failures.fail('login', now + 1, FORGET_MS)).toEqual({ failures: 2, last: now + 1 });
    expect(await failures.fail('login', now + 1 + FORGET_MS + 1, FORGET_MS)).toEqual({
      failures: 1,
      last: now + FORGET_MS + 2,
    });
    await failures.clear('login');
    expect(await failures.read(['login'])).toEqual(new Map());
  });

  it('drops the counts past their forget time as failures come: the table does not grow forever', async () => {
    const failures = store.failures!;
    const now = Date.now();
    for (let i = 0; i < 20; i++) await failures.fail(`old ${i}`, now - 2 * FORGET_MS, FORGET_MS);
    await failures.fail('recent', now - FORGET_MS / 2, FORGET_MS);
    await failures.fail('new', now, FORGET_MS);
    const kept = await failures.read([...Array.from({ length: 20 }, (_, i) => `old ${i}`), 'recent', 'new']);
    expect([...kept.keys()].sort()).toEqual(['new', 'recent']);
  });
});
