/**
 * node-postgres (`pg`), as the PostgreSQL store and the sandbox load it: through this module only.
 *
 * On Node 20, pg's Cloudflare Workers check (lib/stream.js, run as pg loads) finds no `navigator` and builds a
 * `Response` to look for Cloudflare's `cf` member: that loads Node's whole fetch stack (undici, HTTP/2, zlib,
 * worker threads…), about 20 ms of CPU in a start of 100 ms, which nothing else of a start needs. Node 21 and later
 * define `navigator`; on Node 20, one with a `userAgent` that is not Cloudflare's exists while `require('pg')` runs
 * and not a moment longer (it is synchronous: no other code runs meanwhile). The check's answer is the same (not a
 * Worker); only its price changes. Remove with Node 20.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';

function loadPg(): typeof pg {
  const require = createRequire(import.meta.url);
  if (typeof globalThis.navigator !== 'undefined') return require('pg');
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Node.js' }, configurable: true });
  try {
    return require('pg');
  } finally {
    delete (globalThis as { navigator?: unknown }).navigator;
  }
}

const { Pool: PgPool, Client: PgClient } = loadPg();

/** node-postgres's pool of connections (`pg.Pool`). */
export const Pool: typeof pg.Pool = PgPool;
/** node-postgres's single connection (`pg.Client`). */
export const Client: typeof pg.Client = PgClient;

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
