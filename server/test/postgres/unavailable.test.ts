/**
 * A database that stops answering under a running server (here: its schema dropped, so that every statement
 * fails): reads, writes and token requests get a 503 that says so, with `Retry-After`, never a 500; `/health`
 * says unavailable. The same holds for an app that composes the core with the Express shell itself.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { addressesOf } from '../../src/core/addresses.js';
import { createCore } from '../../src/core/index.js';
import { createServer } from '../../src/create-server.js';
import { createExpressApp } from '../../src/express/app.js';
import { seed } from '../../src/seed/index.js';
import { createPostgresStore } from '../../src/store/postgres/postgres.js';
import { tokenRequest } from '../helpers/test-server.js';

describe.skipIf(skipWithout(POSTGRES, 'Writes to an unavailable PostgreSQL'))('a database gone away', () => {
  it('answers 503 with Retry-After on the API, temporarily_unavailable at the token endpoint', async () => {
    const schema = await freshSchema();
    const running = await createServer({ port: 0, store: schema.url, products: 3, demo: { password: 'pw' } });
    const demo = running.credentials!;
    try {
      const issued = await tokenRequest(running.origin, { grant_type: 'client_credentials', scope: 'admin' }, demo);
      const { access_token: token } = (await issued.json()) as { access_token: string };
      const theme = `${running.baseUrl}/themes/1`;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      expect((await fetch(theme, { headers })).status).toBe(200);
      expect((await fetch(`${running.origin}/health`)).status).toBe(200);

      await schema.drop();
      for (const request of [fetch(theme, { headers }), fetch(theme, { method: 'PUT', headers, body: '{}' })]) {
        const response = await request;
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('1');
        expect(((await response.json()) as { message: string }).message).toMatch(/^Service unavailable: the database/);
      }
      const refused = await tokenRequest(running.origin, { grant_type: 'client_credentials' }, demo);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(((await refused.json()) as { error: string }).error).toBe('temporarily_unavailable');
      expect((await fetch(`${running.origin}/health`)).status).toBe(503);
    } finally {
      await running.close();
    }
  });

  it('reads every write of another process in an app of createCore and createExpressApp, and answers 503 without its database', async () => {
    const schema = await freshSchema();
    const { dataset, credentials } = seed({ products: 3 });
    const store = await createPostgresStore(schema.url, { initial: () => dataset });
    const other = await createPostgresStore(schema.url);
    let app: Express | undefined;
    const server = createHttpServer((req, res) => app!(req, res)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const core = createCore({
      store,
      clock: { now: () => Date.now() },
      addresses: addressesOf(origin),
      tokenTtl: 3600,
    });
    app = express().use(createExpressApp({ handle: core.handle, origin }));
    try {
      const issued = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, credentials);
      const { access_token: token } = (await issued.json()) as { access_token: string };
      const headers = { authorization: `Bearer ${token}` };
      await other.write((tx) => tx.update('shops', '1', { name: 'Renamed elsewhere' }));
      const shop = await fetch(`${origin}/v1/shops/1.json`, { headers });
      expect(((await shop.json()) as { name: string }).name).toBe('Renamed elsewhere');
      await schema.drop();
      const refused = await fetch(`${origin}/v1/shops/1.json`, { headers });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await Promise.all([store.close(), other.close()]);
    }
  });
});
