import { jwtVerify } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { authorized } from '../../src/auth/authorized.js';
import { bearer } from '../../src/auth/bearer.js';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { password } from '../../src/auth/password.js';
import { createMemoryTokenStore } from '../../src/auth/token-store.js';
import type { Credentials, TokenInfo } from '../../src/auth/types.js';
import { OAuthError } from '../../src/errors/index.js';
import { fakeTokenEndpoint, tokenBody } from './fake-token-endpoint.js';

const authUrl = 'http://auth.test';
const SECRET = 'client-secret-of-app';
/** The app every strategy under test authenticates as. */
const APP = { authUrl, clientId: 'app', clientSecret: SECRET };

function counter() {
  return fakeTokenEndpoint((_, index) => ({ body: tokenBody(`T${index + 1}`, 3600) }));
}

describe('bearer', () => {
  it('sends its token with an owner that hides it, distinct per token, and cannot refresh', async () => {
    const a = await bearer('token-a').credentials();
    const b = await bearer('token-b').credentials();
    expect(a?.token).toBe('token-a');
    expect(a?.owner).toMatch(/^bearer:[\w-]{22}$/);
    expect(a?.owner).not.toContain('token-a');
    expect(b?.owner).not.toBe(a?.owner);
    expect((await bearer('token-a').credentials())?.owner).toBe(a?.owner);
    expect(bearer('x').refresh).toBeUndefined();
  });
});

describe('clientCredentials', () => {
  it('fetches one token on first use, shared by concurrent requests, and reuses it', async () => {
    const endpoint = counter();
    const auth = clientCredentials({ ...APP, scope: 'admin', ...endpoint });
    const all = await Promise.all(Array.from({ length: 50 }, () => auth.credentials()));
    expect(endpoint.calls).toHaveLength(1);
    expect(new Set(all.map((c) => c?.token))).toEqual(new Set(['T1']));
    expect(all[0]?.owner).toBe('client:app:admin');
    expect((await auth.credentials())?.token).toBe('T1');
    expect(endpoint.calls).toHaveLength(1);
    expect(endpoint.calls[0]?.params.get('grant_type')).toBe('client_credentials');
    expect(endpoint.calls[0]?.params.get('scope')).toBe('admin');
  });

  it('fetches a new token shortly before expiry', async () => {
    let now = 0;
    const endpoint = fakeTokenEndpoint((_, index) => ({ body: tokenBody(`T${index + 1}`, 100) }));
    const auth = clientCredentials({
      ...APP,
      fetch: endpoint.fetch,
      now: () => now,
    });
    expect((await auth.credentials())?.token).toBe('T1');
    now = 80_000;
    expect((await auth.credentials())?.token).toBe('T1');
    now = 95_000; // within the last tenth of its lifetime
    expect((await auth.credentials())?.token).toBe('T2');
    expect(endpoint.calls).toHaveLength(2);
  });

  it('50 concurrent 401s with the same token cause one token request; late ones get the new token for free', async () => {
    const endpoint = counter();
    const tokens: TokenInfo[] = [];
    const auth = clientCredentials({
      ...APP,
      fetch: endpoint.fetch,
      onToken: (token) => {
        tokens.push(token);
      },
    });
    const first = (await auth.credentials()) as Credentials;
    const retried = await Promise.all(Array.from({ length: 50 }, () => auth.refresh!(first)));
    expect(endpoint.calls).toHaveLength(2);
    expect(new Set(retried.map((c) => c.token))).toEqual(new Set(['T2']));
    expect(retried[0]?.owner).toBe(first.owner);
    // A request that left with T1 and comes back with a 401 after the refresh: no new token request.
    expect((await auth.refresh!(first)).token).toBe('T2');
    expect(endpoint.calls).toHaveLength(2);
    expect(tokens.map((t) => t.accessToken)).toEqual(['T1', 'T2']);
  });

  it('instances sharing a token store get one token between them, and each onToken fires once per new token', async () => {
    const endpoint = counter();
    const store = createMemoryTokenStore();
    const seen: string[][] = [[], []];
    const [a, b] = seen.map((tokens) =>
      clientCredentials({
        ...APP,
        scope: 'admin',
        fetch: endpoint.fetch,
        tokenStore: store,
        onToken: (token) => {
          tokens.push(token.accessToken);
        },
      }),
    );
    const first = await Promise.all([a!, b!].flatMap((auth) => Array.from({ length: 20 }, () => auth.credentials())));
    expect(endpoint.calls).toHaveLength(1);
    expect(new Set(first.map((c) => c?.token))).toEqual(new Set(['T1']));
    // A 401 in one instance: the other, refreshing the same token later, adopts the new one from the store.
    const renewed = await a!.refresh!(first[0] as Credentials);
    expect((await b!.refresh!(first[20] as Credentials)).token).toBe(renewed.token);
    expect(endpoint.calls).toHaveLength(2);
    expect(seen.flat().filter((token) => token === 'T1')).toHaveLength(1);
    expect(seen.flat().filter((token) => token === 'T2')).toHaveLength(1);
  });

  it('a request leaving during a refresh waits for the new token instead of sending the old one', async () => {
    const endpoint = counter();
    const auth = clientCredentials({ ...APP, fetch: endpoint.fetch });
    const first = (await auth.credentials()) as Credentials;
    const refreshing = auth.refresh!(first);
    expect((await auth.credentials())?.token).toBe('T2');
    await refreshing;
    expect(endpoint.calls).toHaveLength(2);
  });

  it('a failed refresh rejects every waiter with the OAuthError once, then the next request tries once more', async () => {
    const endpoint = fakeTokenEndpoint((_, index) =>
      index === 0
        ? { body: tokenBody('T1') }
        : { status: 401, body: { error: 'invalid_client', error_description: 'no' } },
    );
    const auth = clientCredentials({ ...APP, fetch: endpoint.fetch });
    const first = (await auth.credentials()) as Credentials;
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => auth.refresh!(first)));
    expect(endpoint.calls).toHaveLength(2);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(OAuthError);
      expect(((result as PromiseRejectedResult).reason as OAuthError).error).toBe('invalid_client');
    }
    // The rejected token is forgotten: the next request asks once for a fresh one and fails the same way.
    await expect(auth.credentials()).rejects.toBeInstanceOf(OAuthError);
    expect(endpoint.calls).toHaveLength(3);
  });

  it('after a failed refresh, late 401s and new requests share one fresh token request', async () => {
    const endpoint = fakeTokenEndpoint((_, index) =>
      index === 1 ? { status: 503, body: { message: 'busy' } } : { body: tokenBody(`T${index + 1}`) },
    );
    const auth = clientCredentials({ ...APP, fetch: endpoint.fetch });
    const first = (await auth.credentials()) as Credentials;
    await expect(auth.refresh!(first)).rejects.toMatchObject({ code: 'SERVER_ERROR' });
    const all = await Promise.all([auth.refresh!(first), auth.credentials(), auth.refresh!(first)]);
    expect(all.map((c) => c?.token)).toEqual(['T3', 'T3', 'T3']);
    expect(endpoint.calls).toHaveLength(3);
  });

  it('a waiter that aborts gives up alone; the shared token request completes for the others', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ body: tokenBody('T1'), delay: 30 }));
    const auth = clientCredentials({ ...APP, fetch: endpoint.fetch });
    const controller = new AbortController();
    const aborted = auth.credentials(controller.signal);
    const patient = auth.credentials();
    controller.abort(new Error('user left'));
    await expect(aborted).rejects.toThrow('user left');
    expect((await patient)?.token).toBe('T1');
    expect(endpoint.calls).toHaveLength(1);
  });
});

describe('password', () => {
  it('sends the password grant with Basic client auth; the owner names the app and the user, not the password', async () => {
    const endpoint = counter();
    const auth = password({
      ...APP,
      username: 'ada',
      password: 'p@ss word',
      scope: 'public',
      fetch: endpoint.fetch,
    });
    const credentials = await auth.credentials();
    // The app's id too: two apps of one user keep tokens apart in a shared store.
    expect(credentials).toEqual({ token: 'T1', owner: 'user:app:ada:public' });
    const [call] = endpoint.calls;
    expect(Object.fromEntries(call?.params ?? [])).toEqual({
      grant_type: 'password',
      username: 'ada',
      password: 'p@ss word',
      scope: 'public',
    });
    expect(call?.headers.get('authorization')).toBe(`Basic ${btoa(`app:${SECRET}`)}`);
    await Promise.all(Array.from({ length: 10 }, () => auth.refresh!(credentials as Credentials)));
    expect(endpoint.calls).toHaveLength(2);
  });
});

describe('authorized (JWT bearer refresh)', () => {
  it('exchanges the failed token once for 50 concurrent 401s, in an HS256 JWT signed with the client secret', async () => {
    const now = 1_700_000_000_000;
    const endpoint = counter();
    const onToken = vi.fn();
    const auth = authorized({
      ...APP,
      accessToken: 'OLD',
      fetch: endpoint.fetch,
      now: () => now,
      onToken,
    });
    const old = (await auth.credentials()) as Credentials;
    expect(old.token).toBe('OLD');
    expect(endpoint.calls).toHaveLength(0);
    const retried = await Promise.all(Array.from({ length: 50 }, () => auth.refresh!(old)));
    expect(endpoint.calls).toHaveLength(1);
    expect(new Set(retried.map((c) => c.token))).toEqual(new Set(['T1']));
    expect(retried[0]?.owner).toBe(old.owner);
    expect(onToken).toHaveBeenCalledOnce();
    expect(onToken.mock.calls[0]?.[0]).toMatchObject({ accessToken: 'T1', scopes: ['admin'] });

    const [call] = endpoint.calls;
    expect(call?.headers.get('authorization')).toBeNull();
    expect(call?.params.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const { payload, protectedHeader } = await jwtVerify(
      call?.params.get('assertion') ?? '',
      new TextEncoder().encode(SECRET),
      {
        algorithms: ['HS256'],
        currentDate: new Date(now),
        issuer: 'app',
        audience: 'http://auth.test/oauth/token',
        subject: 'OLD',
      },
    );
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.exp).toBeGreaterThan(now / 1000);
    expect(payload.exp).toBeLessThanOrEqual(now / 1000 + 300);
  });

  it('chains exchanges: the next 401 exchanges the token the previous exchange gave', async () => {
    const endpoint = counter();
    const auth = authorized({
      ...APP,
      accessToken: 'OLD',
      fetch: endpoint.fetch,
    });
    const t1 = await auth.refresh!((await auth.credentials()) as Credentials);
    const t2 = await auth.refresh!(t1);
    expect(t2.token).toBe('T2');
    const subjects = await Promise.all(
      endpoint.calls.map(async (call) => {
        const { payload } = await jwtVerify(call.params.get('assertion') ?? '', new TextEncoder().encode(SECRET));
        return payload.sub;
      }),
    );
    expect(subjects).toEqual(['OLD', 'T1']);
  });

  it('exchanges shortly before a known expiry instead of waiting for the 401', async () => {
    let now = 0;
    const endpoint = counter();
    const auth = authorized({
      ...APP,
      accessToken: 'OLD',
      expiresAt: 100_000,
      fetch: endpoint.fetch,
      now: () => now,
    });
    expect((await auth.credentials())?.token).toBe('OLD');
    now = 99_000;
    expect((await auth.credentials())?.token).toBe('T1');
    expect(endpoint.calls).toHaveLength(1);
  });

  it('a refused exchange rejects every waiter, then fails at once without another token request', async () => {
    const endpoint = fakeTokenEndpoint(() => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'token already exchanged' },
    }));
    const auth = authorized({
      ...APP,
      accessToken: 'OLD',
      fetch: endpoint.fetch,
    });
    const old = (await auth.credentials()) as Credentials;
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => auth.refresh!(old)));
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof OAuthError)).toBe(true);
    expect(endpoint.calls).toHaveLength(1);
    await expect(auth.refresh!(old)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(auth.credentials()).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(endpoint.calls).toHaveLength(1);
  });

  it('a network failure is not final: the next 401 tries the exchange again', async () => {
    let fail = true;
    const endpoint = counter();
    const flaky: typeof fetch = async (input, init) => {
      if (fail) throw new TypeError('fetch failed');
      return endpoint.fetch(input, init);
    };
    const auth = authorized({ ...APP, accessToken: 'OLD', fetch: flaky });
    const old = (await auth.credentials()) as Credentials;
    await expect(auth.refresh!(old)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    fail = false;
    expect((await auth.refresh!(old)).token).toBe('T1');
  });

  it('keeps an explicit owner, and otherwise one that does not reveal the token', async () => {
    const explicit = authorized({
      ...APP,
      accessToken: 'OLD',
      owner: 'user:42',
    });
    expect((await explicit.credentials())?.owner).toBe('user:42');
    const derived = await authorized({
      ...APP,
      accessToken: 'OLD',
    }).credentials();
    expect(derived?.owner).toMatch(/^token:app:[\w-]{22}$/);
  });
});
