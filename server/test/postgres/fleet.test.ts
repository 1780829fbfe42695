/**
 * Read-your-writes across the processes of one schema without a round trip per read (`postgres-fleet.ts`): a write
 * is reported done once every other member applied it, went, or lost its lease; a member that cannot be sure it is
 * current asks the database before reading. Stores of this process stand for processes, and a plain connection
 * registered in `processes` for one that never answers.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres.js';
import { newTemplate, template } from '../store/rows.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL fleet tests');

describe.skipIf(skip)('processes on one schema', () => {
  let schema: FreshSchema;
  let opened: PostgresStore[];
  let clients: pg.Client[];

  beforeEach(async () => {
    schema = await freshSchema();
    opened = [];
    clients = [];
  });
  afterEach(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await Promise.all(opened.map((store) => store.close()));
    await schema.drop();
  });

  async function open(options: Parameters<typeof createPostgresStore>[1] = {}): Promise<PostgresStore> {
    const store = await createPostgresStore(schema.url, {
      initial: () => ({ templates: [template('1')] }),
      ...options,
    });
    opened.push(store);
    return store;
  }

  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: schema.url.replace(/\?.*/, '') });
    await client.connect();
    clients.push(client);
    return client;
  }

  /** Registers `client` as a member that applies nothing, its lease running `ms` more. */
  async function silentMember(client: pg.Client, id: string, ms: number): Promise<void> {
    await client.query(
      `INSERT INTO "${schema.schema}".processes (id, backend, lease_until, seen)
       VALUES ($1, pg_backend_pid(), now() + $2 * interval '1 millisecond', 0)`,
      [id, ms],
    );
  }

  /** Whether `promise` is still pending after `ms`. */
  async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
    const marker = Symbol('pending');
    const first = await Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(marker), ms))]);
    return first === marker;
  }

  /** A store, a member `id` that applies nothing (a lease of a minute), and a write of the store's still waiting for it. */
  async function writeWaitingFor(id: string) {
    const a = await open();
    const member = await connect();
    await silentMember(member, id, 60_000);
    const write = a.write((tx) => tx.update('templates', '1', { body: `after ${id}` }));
    expect(await pendingAfter(write, 200)).toBe(true);
    return { a, member, write };
  }

  it('has a write reported done only once the other processes hold it in memory: no read asks the database', async () => {
    const a = await open();
    const b = await open();
    const c = await open();
    const stores = [a, b, c];
    for (let round = 0; round < 30; round++) {
      const writer = stores[round % 3]!;
      const body = `round ${round}`;
      await writer.write((tx) => tx.update('templates', '1', { body }));
      // Straight from memory, without sync(): every process applied the write before it was reported done.
      for (const store of stores) expect(store.get('templates', '1')!.body).toBe(body);
      // And a request would not wait even a microtask: its lease current, a process has nothing to catch up.
      for (const store of stores) expect(store.sync()).toBeUndefined();
    }
    const { id } = await b.write((tx) => tx.insert('templates', newTemplate('1', 'new.html')));
    expect(a.get('templates', id)).toBeDefined();
    expect(c.get('templates', id)).toBeDefined();
  });

  it('waits for a member that has not applied a write until it says so', async () => {
    const { a, member, write } = await writeWaitingFor('silent');
    const seq = Number((await member.query(`SELECT seq FROM "${schema.schema}".head`)).rows[0].seq);
    await member.query(`UPDATE "${schema.schema}".processes SET seen = $1 WHERE id = 'silent'`, [seq]);
    await member.query(`SELECT pg_notify($1, $2)`, [`storefront_acks_${schema.schema}`, `silent:${seq}`]);
    await write;
    expect(a.get('templates', '1')!.body).toBe('after silent');
  });

  it('stops waiting for a member that left', async () => {
    const { member, write } = await writeWaitingFor('leaving');
    await member.query(`DELETE FROM "${schema.schema}".processes WHERE id = 'leaving'`);
    await write;
  });

  it('waits for a member whose connection closed until its lease ran out: cut off, it may still trust its lease', async () => {
    const a = await open();
    const member = await connect();
    await silentMember(member, 'cut off', 1200);
    await member.end();
    const started = performance.now();
    await a.write((tx) => tx.update('templates', '1', { body: 'after the lease' }));
    // Not before the lease ran out: the member may have been answering reads from memory until then.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    // Its lease over, the next write does not wait for it.
    const next = a.write((tx) => tx.update('templates', '1', { body: 'next' }));
    expect(await pendingAfter(next, 800)).toBe(false);
  });

  it('reads the write counter while its listening connection is down, and is current again once back', async () => {
    const a = await open();
    const observer = await connect();
    const before = new Set(
      (await observer.query(`SELECT backend FROM "${schema.schema}".processes`)).rows.map((r) => r.backend),
    );
    const b = await open();
    const { rows } = await observer.query(`SELECT id, backend FROM "${schema.schema}".processes`);
    const bRow = rows.find((row) => !before.has(row.backend))!;
    await observer.query('SELECT pg_terminate_backend($1)', [bRow.backend]);
    // B's connection is gone: A does not wait for it, and B asks the database before a request.
    await a.write((tx) => tx.update('templates', '1', { body: 'while B was deaf' }));
    await b.sync();
    expect(b.get('templates', '1')!.body).toBe('while B was deaf');
    // B listens again and renews its lease (a new backend): A's writes wait for it again.
    const renewed = async () => {
      const { rows } = await observer.query(`SELECT backend FROM "${schema.schema}".processes WHERE id = $1`, [
        bRow.id,
      ]);
      return rows.length === 1 && rows[0].backend !== bRow.backend;
    };
    await expect.poll(renewed, { timeout: 10_000 }).toBe(true);
    await a.write((tx) => tx.update('templates', '1', { body: 'B is back' }));
    expect(b.get('templates', '1')!.body).toBe('B is back');
  });

  it('asks the database before reading once its lease could not be renewed', async () => {
    const b = await open({ lease: 600 });
    const writer = await connect();
    const s = `"${schema.schema}"`;
    // Holds the write lock: B's renewals wait, and its lease runs out.
    await writer.query(`BEGIN; SELECT seq FROM ${s}.head FOR UPDATE`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // A write that waited for nobody (B's lease had ended) and whose announcement B never got.
    await writer.query(
      `UPDATE ${s}.templates SET row = jsonb_set(row::jsonb, '{body}', '"unannounced"')::json,
         version = (SELECT seq + 1 FROM ${s}.head) WHERE id = '1';
       UPDATE ${s}.head SET seq = seq + 1; COMMIT`,
    );
    await b.sync();
    expect(b.get('templates', '1')!.body).toBe('unannounced');
  });

  it('does not wait in freshness notify, and a process that leaves is no longer waited for', async () => {
    const a = await open({ freshness: 'notify' });
    const member = await connect();
    await silentMember(member, 'silent', 60_000);
    await a.write((tx) => tx.update('templates', '1', { body: 'not waited' }));
    const b = await open();
    await b.close();
    const { rows } = await member.query(`SELECT id FROM "${schema.schema}".processes`);
    expect(rows.map((row) => row.id)).toEqual(expect.arrayContaining(['silent']));
    expect(rows).toHaveLength(2);
  });
});
