import { createClient, OAuthError, UnauthorizedError } from '@storefront-platform/sdk';
import { createServer } from '@storefront-platform/server';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordingFetch } from '../../../test/support/recording-fetch.js';
import { authorized } from '../../src/auth/authorized.js';
import { bearer } from '../../src/auth/bearer.js';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { password } from '../../src/auth/password.js';
import { requestToken } from '../../src/auth/token-endpoint.js';
import type { TokenInfo } from '../../src/auth/types.js';
import { type ReferenceServer, startReferenceServer } from '../helpers/reference-server.js';

const TTL = 60;
let h: ReferenceServer;

beforeAll(async () => {
  h = await startReferenceServer({ tokenTtl: TTL });
});
afterAll(() => h.server.close());

/** A token of the demo user, obtained outside the client under test. */
async function userToken(): Promise<TokenInfo> {
  const { clientId, clientSecret, login, password: secret } = h.credentials;
  return requestToken({
    authUrl: h.server.origin,
    now: h.clock.now,
    client: { clientId, clientSecret },
    params: { grant_type: 'password', username: login, password: secret, scope: 'admin' },
  });
}

/** The demo app's token endpoint options, for any strategy. */
function demoApp() {
  const { clientId, clientSecret } = h.credentials;
  return { authUrl: h.server.origin, clientId, clientSecret };
}

function expireTokens() {
  h.clock.advance((TTL + 1) * 1000);
}

describe('strategies against the reference server', () => {
  it('client credentials: one token for 50 concurrent first requests, a new one before expiry', async () => {
    const recorder = recordingFetch();
    const auth = clientCredentials({
      ...demoApp(),
      scope: 'admin',
      fetch: recorder.fetch,
      now: h.clock.now,
    });
    // No cache: every read is a full 200, whose status says the token was accepted.
    const client = createClient({ baseUrl: h.server.baseUrl, auth, fetch: recorder.fetch, cache: false });
    const roots = await Promise.all(Array.from({ length: 50 }, () => client.root()));
    expect(roots.every((root) => root.properties.scopes === 'admin')).toBe(true);
    expect(recorder.tokenRequests()).toHaveLength(1);

    expireTokens();
    await client.root();
    expect(recorder.tokenRequests()).toHaveLength(2);
    // Renewed ahead of expiry: the API never saw an expired token.
    expect(recorder.apiRequests().every((e) => e.status === 200)).toBe(true);
  });

  it('client credentials: a token the server no longer accepts is replaced after one 401, once for all', async () => {
    const recorder = recordingFetch();
    // The strategy's clock stands still, so it believes its token is fresh while the server's clock moves on.
    const frozen = h.clock.now();
    const auth = clientCredentials({
      ...demoApp(),
      fetch: recorder.fetch,
      now: () => frozen,
    });
    const client = createClient({ baseUrl: h.server.baseUrl, auth, fetch: recorder.fetch, cache: false });
    await client.root();
    expireTokens();
    await Promise.all(Array.from({ length: 20 }, () => client.root()));
    expect(recorder.tokenRequests()).toHaveLength(2);
    const statuses = recorder.apiRequests().map((e) => e.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 200)).toHaveLength(21);
  });

  it('client credentials with characters that HTTP Basic needs form-encoded (RFC 6749 App. B)', async () => {
    const odd = { clientId: 'my app:1', clientSecret: 'odd:secret+with/chars= é%' };
    const server = await createServer({ port: 0, products: 3, demo: odd });
    try {
      const auth = clientCredentials({ authUrl: server.origin, ...odd, scope: 'admin' });
      const root = await createClient({ baseUrl: server.baseUrl, auth }).root();
      expect(root.properties.scopes).toBe('admin');
    } finally {
      await server.close();
    }
  });

  it('password: a wrong password is a typed OAuthError that does not show the password', async () => {
    const { login } = h.credentials;
    const auth = password({
      ...demoApp(),
      username: login,
      password: 'wrong-pw-123',
    });
    const client = createClient({ baseUrl: h.server.baseUrl, auth });
    const error = await client.root().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).error).toBe('invalid_grant');
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain('wrong-pw-123');
  });

  it('bearer: an expired token surfaces as an UnauthorizedError, with no token request', async () => {
    const recorder = recordingFetch();
    const client = createClient({
      baseUrl: h.server.baseUrl,
      auth: bearer((await userToken()).accessToken),
      fetch: recorder.fetch,
    });
    await client.root();
    expireTokens();
    await expect(client.root()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(recorder.tokenRequests()).toHaveLength(0);
  });
});

describe('authorized: the JWT bearer grant against the reference server', () => {
  it('exchanges an expired token once for 50 concurrent 401s; every request then succeeds', async () => {
    const { clientId, clientSecret } = h.credentials;
    const initial = await userToken();
    const recorder = recordingFetch();
    const onToken = vi.fn();
    const auth = authorized({
      ...demoApp(),
      accessToken: initial.accessToken,
      fetch: recorder.fetch,
      now: h.clock.now,
      onToken,
    });
    const client = createClient({ baseUrl: h.server.baseUrl, auth, fetch: recorder.fetch });
    expect((await client.root()).properties.user_name).toBe('Dana Demo');
    expireTokens();

    const roots = await Promise.all(Array.from({ length: 50 }, () => client.root()));
    expect(roots.every((root) => root.properties.scopes === 'admin')).toBe(true);
    expect(recorder.tokenRequests()).toHaveLength(1);
    expect(onToken).toHaveBeenCalledOnce();
    const renewed = onToken.mock.calls[0]?.[0] as TokenInfo;
    expect(renewed.scopes).toEqual(['admin']);
    expect(renewed.accessToken).not.toBe(initial.accessToken);

    const [exchange] = recorder.tokenRequests();
    expect(exchange?.headers.get('authorization')).toBeNull();
    const form = new URLSearchParams(exchange?.body);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const { payload } = await jwtVerify(form.get('assertion') ?? '', new TextEncoder().encode(clientSecret), {
      currentDate: new Date(h.clock.now()),
      issuer: clientId,
      subject: initial.accessToken,
    });
    expect(payload.aud).toBe(`${h.server.origin}/oauth/token`);

    // The old token was revoked by the exchange; the new one keeps working until it expires in turn.
    const old = createClient({ baseUrl: h.server.baseUrl, auth: bearer(initial.accessToken) });
    await expect(old.root()).rejects.toBeInstanceOf(UnauthorizedError);
    expireTokens();
    await client.root();
    expect(recorder.tokenRequests()).toHaveLength(2);
    expect(onToken).toHaveBeenCalledTimes(2);
  });

  it('a token can be exchanged once: a second holder is refused, every waiter gets the OAuthError, no loop', async () => {
    const initial = await userToken();
    expireTokens();
    /** A client of another holder of the initial token, its exchanges recorded. */
    const holder = () => {
      const recorder = recordingFetch();
      const auth = authorized({
        ...demoApp(),
        accessToken: initial.accessToken,
        fetch: recorder.fetch,
        now: h.clock.now,
      });
      return { recorder, client: createClient({ baseUrl: h.server.baseUrl, auth, fetch: recorder.fetch }) };
    };
    const first = holder();
    await first.client.root();
    expect(first.recorder.tokenRequests()).toHaveLength(1);

    const second = holder();
    const client = second.client;
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => client.root()));
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult).reason as OAuthError;
      expect(reason).toBeInstanceOf(OAuthError);
      expect(reason.error).toBe('invalid_grant');
      expect(reason.message).not.toContain(initial.accessToken);
    }
    expect(second.recorder.tokenRequests()).toHaveLength(1);
    // Refused for good: the next request fails at once, without a token request nor an API request.
    const before = second.recorder.exchanges.length;
    await expect(client.root()).rejects.toBeInstanceOf(OAuthError);
    expect(second.recorder.exchanges).toHaveLength(before);
  });
});
