/**
 * The PostgreSQL store's one freshness rule: before a request is served, the process reads the database's write
 * counter (`head.seq`) and, when it moved past the last write the replica holds, catches up with the rows written
 * since (`sync()`, which the core's dispatch awaits). The requests that arrive in one turn of the event loop, or
 * while a read of the counter runs, share the next one: under load a read costs a fraction of a round trip. So a
 * write acknowledged by any process is seen by the next request on every other, whatever the clocks say.
 *
 * The counter is read by a plain statement outside a transaction, unnamed: any server connection of a pooler
 * answers it alike, since the write it must see committed before it was acknowledged.
 */
import type pg from 'pg';
import type { StoreError } from '../errors.js';
import type { Replica } from './postgres-replica.js';

/** `sync()` for `replica` of `schema` (quoted); `fail` names a failure after the database (a 503's error). */
export function freshness(
  pool: pg.Pool,
  schema: string,
  replica: Replica,
  fail: (what: string, error: unknown) => StoreError,
): { sync(): Promise<void>; stop(): void } {
  const headSql = `SELECT seq FROM ${schema}.head`;
  const check = async () => {
    const { rows } = await pool.query<{ seq: string }>(headSql);
    await replica.refresh(pool, Number(rows[0]!.seq));
  };
  let stopped = false;
  let waiting: Promise<void> | undefined;
  let running: Promise<void> | undefined;
  // A request needs a check that starts after it arrived. The check starts once the event loop has taken in
  // what arrived meanwhile (setImmediate), so that the requests of one turn, and those arriving while a check
  // runs, share one.
  const sync = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    waiting ??= new Promise<void>((resolve, reject) => {
      const start = () => {
        waiting = undefined;
        const current = check()
          .catch((error) => {
            throw fail('cannot read the write counter', error);
          })
          .finally(() => {
            running = undefined;
          });
        running = current;
        current.then(resolve, reject);
      };
      setImmediate(() => (running ? running.catch(() => undefined).then(start) : start()));
    });
    return waiting;
  };
  return {
    sync,
    stop() {
      stopped = true;
    },
  };
}
