/**
 * Trouble no request sees is said, once: when the database ends a server's idle connections (a restart, a
 * failover, an operator's `pg_terminate_backend`), one line is logged for the incident, however many connections
 * it cut, without the URL's password; the store goes on with new connections.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres.js';
import { newTemplate, template } from '../store/rows.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL idle-cut tests');

describe.skipIf(skip)('idle connections cut by the database', () => {
  let schema: FreshSchema;
  let store: PostgresStore | undefined;
  let db: pg.Client;

  beforeEach(async () => {
    schema = await freshSchema();
    db = new pg.Client({ connectionString: schema.url.replace(/\?.*/, '') });
    await db.connect();
  });
  /** Ends this process's idle connections on this schema (their last statement named it); how many. */
  const terminateIdle = async () => {
    const { rows } = await db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name LIKE $1 AND state = 'idle' AND query LIKE $2`,
      [`storefront-server ${process.pid}%`, `%"${schema.schema}"%`],
    );
    return rows.length;
  };
  /** Waits up to `ms` for `warnings` to hold `count` lines. */
  const linesBy = async (warnings: string[], count: number, ms: number) => {
    for (let waited = 0; waited < ms && warnings.length < count; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  afterEach(async () => {
    await db.end();
    await store?.close();
    await schema.drop();
  });

  it('logs one line for a cut of every idle connection, without the password, and goes on', async () => {
    const warnings: string[] = [];
    // Trust authentication ignores the password: it is there to be kept out of the log.
    const url = new URL(schema.url);
    url.password = 'secret-pw';
    store = await createPostgresStore(url.href, {
      initial: () => ({ templates: [template('1')] }),
      warn: (line) => warnings.push(line),
    });
    const opened = store;
    // Several connections open at once, then idle in the pool; and one of the claims' pool.
    await Promise.all(Array.from({ length: 4 }, () => opened.failures!.read(['someone'])));
    await Promise.all(
      Array.from({ length: 3 }, (_, i) => opened.write((tx) => tx.insert('templates', newTemplate('1', `${i}.html`)))),
    );
    const claim = await opened.claim('templates', '1');
    await claim!.release();
    expect(await terminateIdle()).toBeGreaterThan(1);
    await linesBy(warnings, 1, 2000);
    // The rest of the burst arrives meanwhile: still one line.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^storefront-server: PostgreSQL postgres:\/\/postgres:\*\*\*@.*closed an idle connection/,
    );
    expect(warnings[0]).not.toContain('secret-pw');
    // The next write and read open connections of their own.
    await opened.write((tx) => tx.insert('templates', newTemplate('1', 'after.html')));
    await opened.sync();
  });

  // The timer that says it when the 10 s end is checked with fake timers (store/postgres-said-once.test.ts); here,
  // without waiting them out, that the store holds the line and says it as it closes, before anything later.
  it('says an incident within 10 s of the last one, held, at the latest when the store closes', async () => {
    const warnings: string[] = [];
    store = await createPostgresStore(schema.url, {
      initial: () => ({ templates: [template('1')] }),
      warn: (line) => warnings.push(line),
    });
    const opened = store;
    const idle = () => Promise.all(Array.from({ length: 2 }, () => opened.failures!.read(['someone'])));
    await idle();
    expect(await terminateIdle()).toBeGreaterThan(0);
    await linesBy(warnings, 1, 2000);
    expect(warnings).toHaveLength(1);
    // A second incident, past the first one's burst but inside its 10 s.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await idle();
    expect(await terminateIdle()).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(warnings).toHaveLength(1);
    await opened.close();
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/closed an idle connection .*\(and \d+ more connection troubles since\)$/);
  }, 20_000);
});
