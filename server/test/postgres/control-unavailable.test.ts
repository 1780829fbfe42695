/**
 * The control API on a PostgreSQL database that stops answering (its schema dropped, so that every statement
 * fails): each operation answers 503 with `Retry-After` and the API's error body, never a 500. Every one needs the
 * database: the rules, the clock and the journal are the fleet's, in the database (see sandbox-shared.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createServer } from '../../src/create-server.js';

describe.skipIf(skipWithout(POSTGRES, 'The control API on an unavailable PostgreSQL'))('a database gone away', () => {
  it('answers 503 with Retry-After for the operations that need it', async () => {
    const schema = await freshSchema();
    const running = await createServer({ port: 0, store: schema.url, products: 3, control: true, explorer: false });
    const { url, token } = running.control!;
    const call = (method: string, path: string) =>
      fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    try {
      expect((await call('PUT', '/snapshots/one')).status).toBe(201);
      await schema.drop();
      for (const [method, path] of [
        ['GET', '/snapshots'],
        ['PUT', '/snapshots/two'],
        ['POST', '/snapshots/one/restore'],
        ['DELETE', '/snapshots/one'],
        ['POST', '/reset'],
        ['GET', '/clock'],
        ['GET', '/journal'],
        ['DELETE', '/journal'],
        ['GET', '/faults'],
        ['DELETE', '/faults'],
      ] as const) {
        const response = await call(method, path);
        expect(response.status, `${method} ${path}`).toBe(503);
        expect(response.headers.get('retry-after')).toBe('1');
        expect(((await response.json()) as { _class: string[] })._class).toEqual(['errors']);
      }
      // A request of the API, past the journal and the fault rules, which both read the database first.
      const answer = await fetch(`${running.baseUrl}/shops.json`);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
    } finally {
      await running.close().catch(() => undefined);
    }
  });
});
