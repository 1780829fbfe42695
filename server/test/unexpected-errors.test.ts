/**
 * A failure that is not bad input (here a store write that throws, as a full disk would): both shells answer the
 * same JSON 500, with CORS and without details; the token endpoint in RFC 6749's form, the API with its errors body.
 */
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCore } from '../src/core/index.js';
import type { CoreContext } from '../src/core/types.js';
import { createExpressApp } from '../src/express/app.js';
import { issueToken } from '../src/oauth/index.js';
import { seed } from '../src/seed/index.js';
import { createMemoryStore } from '../src/store/index.js';

const origin = 'http://storefront.test';
const seeded = seed({ products: 4, orders: 1 });
const store = createMemoryStore(seeded.dataset);
const context: CoreContext = {
  store,
  clock: { now: () => Date.now() },
  addresses: { origin, baseUrl: `${origin}/v1`, authUrl: origin, staticUrl: `${origin}/static` },
  tokenTtl: 3600,
};
const core = createCore(context);
let server: Server;
let listening: string;
let token: string;

beforeAll(async () => {
  token = (await issueToken(context, { appId: '1', userId: '1', scopes: ['admin'] })).token;
  const app = createExpressApp({ handle: core.handle, origin });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  listening = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => vi.restoreAllMocks());

/** The store's writes fail from now on (restored after each test); the failures are logged, not sent. */
function failWrites(): unknown[] {
  vi.spyOn(store, 'write').mockRejectedValue(new Error('ENOSPC: secret/path/store.json'));
  const logged: unknown[] = [];
  vi.spyOn(console, 'error').mockImplementation((error: unknown) => void logged.push(error));
  return logged;
}

/** The same request through both shells. */
async function both(path: string, init: RequestInit): Promise<Response[]> {
  return [await core.fetch(new Request(origin + path, init)), await fetch(listening + path, init)];
}

async function summary(response: Response) {
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    cors: response.headers.get('access-control-allow-origin'),
    cacheControl: response.headers.get('cache-control'),
    body: await response.json(),
    // Each answer names its own request: the same in header and body, another in each shell.
    requestId: response.headers.get('x-request-id'),
  };
}

describe('an unexpected failure', () => {
  it('of the token endpoint is a JSON server_error, no-store, with CORS, in both shells', async () => {
    const logged = failWrites();
    const { clientId, clientSecret } = seeded.credentials;
    const form = { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret };
    for (const response of await both('/oauth/token', { method: 'POST', body: new URLSearchParams(form) })) {
      const answered = await summary(response);
      expect(answered).toEqual({
        status: 500,
        type: 'application/json; charset=utf-8',
        cors: '*',
        cacheControl: 'no-store',
        body: { error: 'server_error', error_description: 'Internal server error', request_id: answered.requestId },
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    }
    expect(logged).toHaveLength(2);
  });

  it('of the API is the errors body with the API headers, in both shells', async () => {
    failWrites();
    const init = {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Renamed' }),
    };
    const [viaFetch, viaExpress] = await both('/v1/themes/1', init);
    const expected = await summary(viaFetch!);
    expect(expected).toEqual({
      status: 500,
      type: 'application/json; charset=utf-8',
      cors: '*',
      cacheControl: 'must-revalidate, private, max-age=0',
      body: { _class: ['errors'], message: 'Internal server error', request_id: expected.requestId },
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const express = await summary(viaExpress!);
    expect(express).toEqual({
      ...expected,
      body: { ...expected.body, request_id: express.requestId },
      requestId: express.requestId,
    });
  });
});

describe('the Express shell', () => {
  it('renders its own errors as the core does', async () => {
    const response = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const { port } = new URL(listening);
        // The asterisk-form target (RFC 9112 §3.2.4) is no URL; fetch cannot send it.
        httpRequest({ host: '127.0.0.1', port, path: '*', headers: { 'x-request-id': 'star-1' } }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        })
          .on('error', reject)
          .end();
      },
    );
    expect(response.status).toBe(400);
    expect(response.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'access-control-allow-origin': '*',
      'cache-control': 'must-revalidate, private, max-age=0',
      'x-request-id': 'star-1',
    });
    expect(JSON.parse(response.body)).toEqual({
      _class: ['errors'],
      message: 'The request target is not a valid URL',
      request_id: 'star-1',
    });
  });
});
