/**
 * Credentials go to the API's and the token endpoint's origins only: a token endpoint that answers 307 or 308 to
 * another origin gets no grant sent there (each grant), and an API request redirected to another origin arrives
 * there without its bearer token. Real HTTP servers on port 0: `redirecting` answers every request with a redirect
 * to `elsewhere`, another origin that records what reaches it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exchangeCode } from '../../src/auth/authorization-code.js';
import { authorized } from '../../src/auth/authorized.js';
import { bearer } from '../../src/auth/bearer.js';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { password } from '../../src/auth/password.js';
import type { AuthStrategy } from '../../src/auth/types.js';
import { createClient } from '../../src/client.js';
import { HttpError } from '../../src/errors/index.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
let status = 307;
let elsewhere: Server;
let redirecting: Server;
let elsewhereOrigin: string;
let redirectingOrigin: string;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  elsewhere = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' });
      // A token for a grant, a root for an API request: what a thief would answer to be believed.
      response.end(
        JSON.stringify(
          request.url!.startsWith('/oauth/token')
            ? { access_token: 'stolen', token_type: 'bearer', expires_in: 3600, scopes: 'admin' }
            : { _links: { self: { href: '/v1' } }, user_name: 'x', scopes: 'admin' },
        ),
      );
    });
  });
  elsewhereOrigin = await listen(elsewhere);
  // Another origin: the same address, another port.
  redirecting = createServer((request, response) => {
    request.resume();
    response.writeHead(status, { location: `${elsewhereOrigin}${request.url}` });
    response.end();
  });
  redirectingOrigin = await listen(redirecting);
});

afterAll(async () => {
  await Promise.all([elsewhere, redirecting].map((server) => new Promise((resolve) => server.close(resolve))));
});

beforeEach(() => {
  received.length = 0;
});

const app = { clientId: 'app', clientSecret: 'client secret' };

/** A client of the redirecting origin, signing in with `auth`; its first request needs a token. */
const rootWith = (auth: AuthStrategy) =>
  createClient({ baseUrl: `${redirectingOrigin}/v1`, auth, retry: false }).root();

describe.each([307, 308])('a token endpoint answering %i to another origin', (code) => {
  beforeEach(() => {
    status = code;
  });

  const grants: [string, () => Promise<unknown>][] = [
    [
      'password',
      () => rootWith(password({ ...app, authUrl: redirectingOrigin, username: 'dana', password: 'the password' })),
    ],
    ['client credentials', () => rootWith(clientCredentials({ ...app, authUrl: redirectingOrigin }))],
    [
      'JWT bearer refresh',
      () =>
        rootWith(
          authorized({ ...app, authUrl: redirectingOrigin, accessToken: 'expired token', expiresAt: Date.now() }),
        ),
    ],
    [
      'authorization code exchange',
      () =>
        exchangeCode({
          ...app,
          authUrl: redirectingOrigin,
          redirectUri: 'http://127.0.0.1/callback',
          callbackUrl: 'http://127.0.0.1/callback?code=the-code&state=s',
          state: 's',
          codeVerifier: 'v'.repeat(43),
        }),
    ],
  ];

  it.each(grants)('%s: the grant is not sent there, and the redirect is an error', async (_, run) => {
    const failure = await run().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect((failure as HttpError).status).toBe(code);
    expect((failure as HttpError).message).toMatch(/redirect to http:\/\/127\.0\.0\.1:\d+\/oauth\/token, not followed/);
    expect(received).toEqual([]);
  });
});

describe('an API request redirected to another origin', () => {
  it.each([307, 308])('%i: arrives without the bearer token (fetch drops it)', async (code) => {
    status = code;
    await rootWith(bearer('the token'));
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/v1');
    expect(received[0]!.headers.authorization).toBeUndefined();
  });
});
