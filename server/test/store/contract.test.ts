/** The store contract (`contract.ts`) over every adapter. A new adapter adds its line here. */
import { join } from 'node:path';
import { createSharingStore } from '../../src/store/engine.js';
import { createJsonStore } from '../../src/store/json/json-file.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { SharedTables } from '../../src/store/shared-tables.js';
import type { Store } from '../../src/store/types.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { describeStoreContract, type OpenStore } from './contract.js';

const tempDir = useTempDir();

const inMemory = (store: Store) => ({ store, close: () => store.close() });

/** The JSON files in a fresh directory; `reopen` closes them and opens them again, as a restart does. */
const jsonFiles =
  (sync: boolean): OpenStore =>
  async (initial = {}) => {
    const path = join(await tempDir(), 'db.json');
    let store: Store = await createJsonStore(path, { initial: () => initial, sync });
    return {
      get store() {
        return store;
      },
      async reopen() {
        await store.close();
        store = await createJsonStore(path, { sync });
        return store;
      },
      close: () => store.close(),
    };
  };

describeStoreContract('memory', async (initial) => inMemory(createMemoryStore(initial)));
// MSW's: over shared tables, to which it never writes (see `store-shared-tables.test.ts`).
describeStoreContract('sharing (MSW)', async (initial = {}) => inMemory(createSharingStore(new SharedTables(initial))));
describeStoreContract('JSON files, flushed', jsonFiles(true), { durable: true });
describeStoreContract('JSON files, not flushed', jsonFiles(false), { durable: true });
