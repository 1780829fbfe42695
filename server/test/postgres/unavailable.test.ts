/**
 * A database that stops taking writes under a running server (here: its schema dropped, with `freshness=notify`
 * so that no read of the write counter answers first): writes and token requests get a 503 that says so, never a
 * 500.
 */
import { describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createServer } from '../../src/create-server.js';
import { tokenRequest } from '../helpers/test-server.js';

describe.skipIf(skipWithout(POSTGRES, 'Writes to an unavailable PostgreSQL'))('writes to a database gone away', () => {
  it('answer 503 with Retry-After on the API and temporarily_unavailable at the token endpoint', async () => {
    const schema = await freshSchema();
    const url = new URL(schema.url);
    url.searchParams.set('freshness', 'notify');
    const running = await createServer({ port: 0, store: url.href, products: 3, demo: { password: 'pw' } });
    const demo = running.credentials!;
    try {
      const issued = await tokenRequest(running.origin, { grant_type: 'client_credentials', scope: 'admin' }, demo);
      const { access_token: token } = (await issued.json()) as { access_token: string };
      const theme = `${running.baseUrl}/themes/1`;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      expect((await fetch(theme, { headers })).status).toBe(200);

      await schema.drop();
      const write = await fetch(theme, { method: 'PUT', headers, body: JSON.stringify({ title: 'Gone' }) });
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).toBe('1');
      expect(((await write.json()) as { message: string }).message).toMatch(/^Service unavailable: the database/);

      const token2 = await tokenRequest(running.origin, { grant_type: 'client_credentials' }, demo);
      expect(token2.status).toBe(503);
      expect(((await token2.json()) as { error: string }).error).toBe('temporarily_unavailable');
    } finally {
      await running.close();
    }
  });
});
