/**
 * The sandbox's request journal in a PostgreSQL store (`request_journal`), so that a test reads through any process
 * of a fleet the requests every one of them answered: one statement each, outside a transaction and unnamed, so
 * any server connection of a pooler serves them.
 */
import type { JournalRecord, SharedJournal } from '../types.js';
import type { GuardedQuery } from './postgres-driver.js';

/** The journal in `schema` (quoted), through `query` (a failure is the control API's 503). */
export function sharedJournal(query: GuardedQuery, schema: string): SharedJournal {
  return {
    async add(record, keep) {
      // The records `keep` and more before this one go in the same statement: the table never grows past `keep`
      // by more than the inserts in flight.
      await query(
        `WITH added AS (INSERT INTO ${schema}.request_journal (method, path, status, entry) VALUES ($1, $2, $3, $4) RETURNING seq)
         DELETE FROM ${schema}.request_journal WHERE seq <= (SELECT seq FROM added) - $5::bigint`,
        [record.method, record.path, record.status, JSON.stringify(record), keep],
      );
    },
    async list({ method, path, status }) {
      const { rows } = await query<{ entry: JournalRecord }>(
        `SELECT entry FROM ${schema}.request_journal
          WHERE ($1::text IS NULL OR method = $1) AND ($2::text IS NULL OR starts_with(path, $2))
            AND ($3::integer IS NULL OR status = $3)
          ORDER BY seq`,
        [method ?? null, path ?? null, status ?? null],
      );
      return rows.map((row) => row.entry);
    },
    async clear() {
      await query(`DELETE FROM ${schema}.request_journal`);
    },
  };
}
