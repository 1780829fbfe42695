/**
 * The rate limit's counts in PostgreSQL (`postgres-rate-counts.ts`), two "processes" (each its own pool and counts)
 * on one schema: counts taken ahead spare the round trips of a busy key, every count is handed out once across
 * both, none past the quota goes unrefused, and near the quota the counts are taken one request at a time.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore } from '../../src/store/postgres/postgres.js';
import { guardedQuery } from '../../src/store/postgres/postgres-driver.js';
import { sharedRateCounts } from '../../src/store/postgres/postgres-rate-counts.js';
import { quoteSchema } from '../../src/store/postgres/postgres-schema.js';
import type { SharedRateCounts } from '../../src/store/types.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL rate limit counts');
const WINDOW = Date.UTC(2026, 11, 6, 10, 0, 0);

/** One process's counts, and the statements it sent. */
interface Process {
  counts: SharedRateCounts;
  queries(): number;
}

describe.skipIf(skip)('rate limit counts in PostgreSQL', () => {
  let schema: FreshSchema;
  const pools: pg.Pool[] = [];

  beforeEach(async () => {
    schema = await freshSchema();
    // The store creates the schema and its tables (migration 9: `rate_limits`).
    await (await createPostgresStore(schema.url)).close();
  });
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
    await schema.drop();
  });

  function process(): Process {
    const url = new URL(schema.url);
    url.searchParams.delete('schema');
    const pool = new pg.Pool({ connectionString: url.href, max: 2 });
    pools.push(pool);
    let sent = 0;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
      sent++;
      return query(...args);
    };
    const fail = (what: string, error: unknown) => new Error(`${what}: ${error}`);
    const counts = sharedRateCounts(guardedQuery(pool, fail, 'the rate limit counts'), quoteSchema(schema.schema));
    return { counts, queries: () => sent };
  }

  it('takes counts ahead for a busy key: a round trip per block, the counts one after the other', async () => {
    const one = process();
    const counts: number[] = [];
    for (let i = 0; i < 500; i++) counts.push(await one.counts.add('app user', WINDOW, 1_000_000));
    expect(counts).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    // Each block at most doubles what was counted: a handful of round trips rather than 500.
    expect(one.queries()).toBeLessThan(15);
    // A key read once takes little ahead (twice its one request): what is left for the others barely moves.
    expect(await one.counts.add('other key', WINDOW, 1_000_000)).toBe(1);
    expect(await process().counts.add('other key', WINDOW, 1_000_000)).toBe(4);
  });

  it('hands each count out once across processes, all of the quota and none past it unrefused', async () => {
    const quota = 1000;
    const [a, b] = [process(), process()];
    const handed: number[] = [];
    // Bursts of concurrent requests on both, 1.5× the quota in all: each process keeps taking counts to the end.
    for (let burst = 0; burst < 50; burst++) {
      const requests = Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).counts.add('app user', WINDOW, quota));
      handed.push(...(await Promise.all(requests)));
    }
    expect(new Set(handed).size).toBe(handed.length);
    const allowed = handed.filter((count) => count <= quota).sort((x, y) => x - y);
    expect(allowed).toEqual(Array.from({ length: quota }, (_, i) => i + 1));
  });

  it('takes nothing ahead near the quota: a round trip per turn, exact as without', async () => {
    const [a, b] = [process(), process()];
    const handed = await Promise.all(
      Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).counts.add('app user', WINDOW, 40)),
    );
    expect([...handed].sort((x, y) => x - y)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    for (let i = 0; i < 4; i++) expect(await a.counts.add('app user', WINDOW, 40)).toBe(81 + i);
    expect(a.queries()).toBeGreaterThanOrEqual(5);
  });

  it('starts over in the next window, and counts a late process in the row’s window', async () => {
    const [a, b, late] = [process(), process(), process()];
    for (let i = 0; i < 50; i++) await a.counts.add('app user', WINDOW, 1_000_000);
    const next = WINDOW + 60_000;
    expect(await b.counts.add('app user', next, 1_000_000)).toBe(1);
    // What `a` took ahead in the past window is of no use in this one: it counts after b.
    const afterB = await a.counts.add('app user', next, 1_000_000);
    expect(afterB).toBeGreaterThan(1);
    // A process whose clock lags names the past window: it counts in the row's, after the others.
    expect(await late.counts.add('app user', WINDOW, 1_000_000)).toBeGreaterThan(afterB);
  });
});
