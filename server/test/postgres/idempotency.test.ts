/**
 * `Idempotency-Key` across two real `storefront-server --store postgres://…` processes on one schema: a key held
 * by a request on one is a 409 on the other, and once answered it is replayed by either, with one write.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { adminToken, type Server, startServers, stopServers } from './write-load.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL idempotency tests');

describe('Idempotency-Key on two processes sharing PostgreSQL', () => {
  if (skip) {
    it.skip('needs PostgreSQL');
    return;
  }
  let schema: FreshSchema;
  let servers: Server[] = [];
  let token: string;

  beforeAll(async () => {
    schema = await freshSchema();
    servers = await startServers(schema.url, 2);
    token = await adminToken(servers[0]!.origin);
  }, 60_000);

  afterAll(async () => {
    await stopServers(servers);
    await schema?.drop();
  });

  function create(origin: string, key: string, fileName: string): Promise<Response> {
    return fetch(`${origin}/v1/themes/1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ file_name: fileName, body: '<p>fleet</p>' }),
    });
  }

  async function countTemplates(client: pg.Client, fileName: string): Promise<number> {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schema.schema}".templates WHERE row->>'file_name' = $1`,
      [fileName],
    );
    return Number(rows[0]!.n);
  }

  it('answers 409 on one process while the other answers the key, then replays it on both; one write', async () => {
    const [a, b] = servers.map((server) => server.origin) as [string, string];
    const client = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, '') });
    await client.connect();
    try {
      // Hold the write lock every write takes: A's request holds its key while its write waits for it.
      await client.query(`BEGIN; SELECT seq FROM "${schema.schema}".head FOR UPDATE`);
      const first = create(a, 'fleet-key-1', 'fleet.html');
      await waitForLockWaiter(client);
      const second = await create(b, 'fleet-key-1', 'fleet.html');
      expect(second.status).toBe(409);
      await client.query('COMMIT');
      const answered = await first;
      expect(answered.status).toBe(201);
      const body = await answered.text();
      for (const origin of [a, b]) {
        const replayed = await create(origin, 'fleet-key-1', 'fleet.html');
        expect(replayed.status).toBe(201);
        expect(replayed.headers.get('idempotent-replayed')).toBe('true');
        expect(await replayed.text()).toBe(body);
      }
      // The key is the caller's: the other body is a 422 on either process.
      expect((await create(b, 'fleet-key-1', 'other.html')).status).toBe(422);
      expect(await countTemplates(client, 'fleet.html')).toBe(1);
      expect(await countTemplates(client, 'other.html')).toBe(0);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    }
  });

  it('writes once for 20 concurrent requests with one key spread over both: the rest are 409s or replays', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(servers[i % 2]!.origin, 'fleet-key-2', 'burst.html')),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const firsts = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    expect(firsts).toHaveLength(1);
    const client = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, '') });
    await client.connect();
    try {
      expect(await countTemplates(client, 'burst.html')).toBe(1);
    } finally {
      await client.end();
    }
  });
});

/** Resolves once a server's connection waits for a lock (the write lock the test holds). */
async function waitForLockWaiter(client: pg.Client): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name LIKE 'storefront-server%'`,
    );
    if (Number(rows[0]!.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no server waited for the write lock');
}
