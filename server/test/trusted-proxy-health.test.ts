/**
 * Behind a reverse proxy: with `trustProxy`, failed logins are counted per client as `X-Forwarded-For` names it
 * (only when the request comes from a trusted proxy); and `GET /health` for load balancers, on the PostgreSQL
 * store a 503 once the database is gone.
 */
import { describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../test/support/postgres-server.js';
import { skipWithout } from '../../test/support/requirement.js';
import { createServer } from '../src/create-server.js';
import { clientAddressOf } from '../src/express/forwarded-for.js';
import { tokenRequest, useTestServer } from './helpers/test-server.js';

const DEMO = { clientId: 'proxy-app', clientSecret: 'proxy-secret-0123456789' };
/** Failures per client and address that cost nothing (see `login-guard.ts`). */
const FREE_PER_CLIENT_ADDRESS = 20;

describe('the client address behind trusted proxies', () => {
  it('is read from X-Forwarded-For only when the peer is trusted, from the right, past trusted hops', () => {
    const trusted = ['loopback', '10.0.0.9'];
    expect(clientAddressOf('127.0.0.1', '203.0.113.7', trusted)).toBe('203.0.113.7');
    expect(clientAddressOf('::ffff:127.0.0.1', '198.51.100.1, 203.0.113.7, 10.0.0.9', trusted)).toBe('203.0.113.7');
    expect(clientAddressOf('192.0.2.1', '203.0.113.7', trusted)).toBe('192.0.2.1');
    expect(clientAddressOf('127.0.0.1', undefined, trusted)).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', '203.0.113.7', [])).toBe('127.0.0.1');
    expect(clientAddressOf('::1', ['203.0.113.7', '10.0.0.9'], trusted)).toBe('203.0.113.7');
  });

  const server = useTestServer({ trustProxy: ['loopback'], demo: DEMO });
  const spray = (login: string, forwardedFor: string) =>
    fetch(`${server().origin}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': forwardedFor,
        authorization: `Basic ${Buffer.from(`${DEMO.clientId}:${DEMO.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'password', username: login, password: 'wrong' }),
    });

  it('counts failed logins per forwarded client: one client is throttled, another behind the same proxy is not', async () => {
    for (let i = 0; i < FREE_PER_CLIENT_ADDRESS; i++)
      expect((await spray(`user-${i}`, '203.0.113.7')).status).toBe(400);
    expect((await spray('user-x', '203.0.113.7')).status).toBe(429);
    expect((await spray('user-y', '203.0.113.8')).status).toBe(400);
  });

  it('refuses a bad trustProxy entry', async () => {
    await expect(createServer({ port: 0, trustProxy: ['not an address'] })).rejects.toThrow(/trustProxy/);
  });
});

describe('GET /health', () => {
  const server = useTestServer();

  it('answers 200 ok, uncached, for GET and HEAD', async () => {
    const response = await fetch(`${server().origin}/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${server().origin}/health`, { method: 'HEAD' })).status).toBe(200);
  });

  describe.skipIf(skipWithout(POSTGRES, 'The health check on PostgreSQL'))('on PostgreSQL', () => {
    it('answers 503 once the database cannot be reached, and the API a 503 too', async () => {
      const schema: FreshSchema = await freshSchema();
      const running = await createServer({ port: 0, store: schema.url, products: 5 });
      try {
        expect((await fetch(`${running.origin}/health`)).status).toBe(200);
        expect((await tokenRequest(running.origin, { grant_type: 'client_credentials' })).status).toBe(401);
        // The schema goes away under the server: its database no longer holds the data.
        await schema.drop();
        const health = await fetch(`${running.origin}/health`);
        expect({ status: health.status, body: await health.json() }).toEqual({
          status: 503,
          body: { status: 'unavailable' },
        });
        const api = await fetch(`${running.baseUrl}/`);
        expect(api.status).toBe(503);
        // A browser app can read it: the CORS headers of every answer.
        expect(api.headers.get('access-control-allow-origin')).toBe('*');
        expect(api.headers.get('access-control-expose-headers')).toContain('Retry-After');
      } finally {
        await running.close();
      }
    });
  });
});
