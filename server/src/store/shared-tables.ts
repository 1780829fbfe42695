/**
 * Tables over a data set that no store changes, built once and read by every store made from it: MSW's mocks
 * start each test file (each test, after `reset()`) from the same data, and building their tables again for
 * every mock cost more than the rest of a start. A store copies a shared table the first time it writes to it.
 */
import { COLLECTIONS } from './collections.js';
import { type Row, Table } from './table.js';
import type { Tables } from './transaction.js';
import type { StoredData } from './types.js';

export class SharedTables {
  /**
   * The tables, each built on first access (a test that never reads products never pays for them). A store
   * reads them through an object of its own whose prototype this is: its copies shadow them.
   */
  readonly tables: Tables;

  /** `data` is taken as is and must not change afterwards. */
  constructor(data: Partial<StoredData>) {
    const tables = {} as Tables;
    for (const name of COLLECTIONS) {
      Object.defineProperty(tables, name, {
        configurable: true,
        get() {
          const table = new Table<Row>(data[name] ?? []);
          Object.defineProperty(tables, name, { value: table });
          return table;
        },
      });
    }
    this.tables = tables;
  }

  /** Builds every table now, so that a bad row (a duplicate id) fails here rather than in a later request. */
  check(): void {
    for (const name of COLLECTIONS) void this.tables[name];
  }
}
