/**
 * The control API on a PostgreSQL database that stops answering (its schema dropped, so that every statement
 * fails): each operation answers 503 with `Retry-After` and the API's error body, never a 500. Every one needs the
 * database: the rules, the clock and the journal are the fleet's, in the database (see sandbox-shared.test.ts).
 * The API and the token endpoint behind it answer the outage in their own terms, each error naming its request.
 */
import { clientCredentials, createClient, ServerError } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createServer } from '../../src/create-server.js';
import { tokenRequest } from '../helpers/test-server.js';

/** The answer's body, which names the request by its `X-Request-Id`. */
async function namedBody(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.request_id).toBe(response.headers.get('x-request-id'));
  return body;
}

describe.skipIf(skipWithout(POSTGRES, 'The control API on an unavailable PostgreSQL'))('a database gone away', () => {
  it('answers 503 with Retry-After for the operations that need it', async () => {
    const schema = await freshSchema();
    const running = await createServer({
      port: 0,
      store: schema.url,
      products: 3,
      control: true,
      explorer: false,
      demo: { password: 'pw' },
    });
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
        expect((await namedBody(response))._class).toEqual(['errors']);
      }
      // A request of the API, past the journal and the fault rules, which both read the database first.
      const answer = await fetch(`${running.baseUrl}/shops.json`, { headers: { 'x-request-id': 'api-1' } });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.headers.get('x-request-id')).toBe('api-1');
      expect(await namedBody(answer)).toMatchObject({ _class: ['errors'], message: /the database did not answer/ });
      // The token endpoint, past them too: RFC 6749's error, as without the control API (unavailable.test.ts).
      const refused = await tokenRequest(running.origin, { grant_type: 'client_credentials' }, running.credentials);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      expect(await namedBody(refused)).toMatchObject({ error: 'temporarily_unavailable' });
      // The SDK's ServerError (a failure to try again later, not a refusal), with the OAuth error in its body.
      const { clientId, clientSecret } = running.credentials!;
      const auth = clientCredentials({ authUrl: running.origin, clientId, clientSecret });
      const error = await createClient({ baseUrl: running.baseUrl, auth })
        .root()
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 503, body: { error: 'temporarily_unavailable' } });
    } finally {
      await running.close().catch(() => undefined);
    }
  });
});
