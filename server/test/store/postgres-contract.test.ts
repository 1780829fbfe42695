/** The store contract (`contract.ts`) over the PostgreSQL store, each test on a schema of its own. */
import { afterAll } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore } from '../../src/store/postgres/postgres.js';
import type { Store } from '../../src/store/types.js';
import { describeStoreContract } from './contract.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL store contract');
const schemas: FreshSchema[] = [];
afterAll(async () => {
  await Promise.all(schemas.map((schema) => schema.drop()));
});

if (!skip) {
  describeStoreContract(
    'PostgreSQL',
    async (initial = {}) => {
      const schema = await freshSchema();
      schemas.push(schema);
      let store: Store = await createPostgresStore(schema.url, { initial: () => initial });
      return {
        get store() {
          return store;
        },
        async reopen() {
          await store.close();
          store = await createPostgresStore(schema.url);
          return store;
        },
        close: () => store.close(),
      };
    },
    { durable: true },
  );
}
