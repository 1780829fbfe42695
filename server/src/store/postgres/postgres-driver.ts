/**
 * node-postgres (`pg`), as the PostgreSQL store and the sandbox load it: through this module only.
 *
 * On Node 20, pg's Cloudflare Workers check builds a `Response` as pg loads (Node 20 has no `navigator`), which
 * loads Node's fetch stack, about 30 ms of CPU at a PostgreSQL start. Node 21 and later define `navigator` and pay
 * nothing; Node 20 is past its end of life, so we leave pg to load as it does rather than fool its check.
 */
import pg from 'pg';

/** node-postgres's pool of connections (`pg.Pool`). */
export const Pool: typeof pg.Pool = pg.Pool;
/** node-postgres's single connection (`pg.Client`). */
export const Client: typeof pg.Client = pg.Client;

/** A statement run by {@link guardedQuery}. */
export type GuardedQuery = <R extends pg.QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<pg.QueryResult<R>>;

/**
 * `pool.query` whose failures reject with what `unavailable` makes of them (a `StoreUnavailableError`: the control
 * API answers 503), naming `what` the statements serve.
 */
export function guardedQuery(
  pool: pg.Pool,
  unavailable: (what: string, error: unknown) => Error,
  what: string,
): GuardedQuery {
  return <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    pool.query<R>(text, values).catch((error: unknown) => {
      throw unavailable(what, error);
    });
}
