/**
 * The sandbox's snapshots of a PostgreSQL store (`snapshots`), so that one taken through any process of a fleet
 * is restored through any other: one statement each, outside a transaction. A snapshot is stored as one JSON
 * document; restoring it is a write of the store like any other (see `sandbox/restore.ts`). The fleet's start
 * data (`:start`, see `sandbox/baseline.ts`) is kept here too, under a name no snapshot takes, and not listed.
 */
import type { Dataset, SnapshotShelf } from '../types.js';
import type { GuardedQuery } from './postgres-driver.js';

/** The snapshots in `schema` (quoted), through `query` (a failure is the control API's 503). */
export function sharedSnapshots(query: GuardedQuery, schema: string): SnapshotShelf {
  return {
    async put(name, data, takenOn) {
      await query(
        `INSERT INTO ${schema}.snapshots (name, taken_on, data) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET taken_on = excluded.taken_on, data = excluded.data`,
        [name, takenOn, JSON.stringify(data)],
      );
    },
    async get(name) {
      const { rows } = await query<{ data: Dataset }>(`SELECT data FROM ${schema}.snapshots WHERE name = $1`, [name]);
      return rows[0]?.data;
    },
    async takenOn(name) {
      const { rows } = await query<{ taken_on: string }>(`SELECT taken_on FROM ${schema}.snapshots WHERE name = $1`, [
        name,
      ]);
      return rows[0]?.taken_on;
    },
    async list() {
      const { rows } = await query<{ name: string; taken_on: string }>(
        `SELECT name, taken_on FROM ${schema}.snapshots ORDER BY name`,
      );
      return rows;
    },
    async delete(name) {
      const { rowCount } = await query(`DELETE FROM ${schema}.snapshots WHERE name = $1`, [name]);
      return (rowCount ?? 0) > 0;
    },
  };
}
