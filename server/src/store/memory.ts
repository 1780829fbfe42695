import { createStoreEngine } from './engine.js';
import type { Dataset, Store } from './types.js';

/**
 * A store that lives in memory only (MSW handlers, tests). `data` is taken as is: its rows become the
 * store's own, so pass a data set you no longer change. Writes are acknowledged once applied.
 */
export function createMemoryStore(data?: Partial<Dataset>): Store {
  return createStoreEngine(data);
}
