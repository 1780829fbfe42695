/**
 * A refresh cut after the token endpoint answered: a store that fails while the new token is stored, and a token
 * exchanged by an instance that kept the new one to itself. The holder goes on with its token and stores it once
 * the store is back; the others adopt it, or get one `AuthorizationLostError` after one exchange.
 */
import { describe, expect, it, vi } from 'vitest';
import { type AuthorizedOptions, authorized } from '../../src/auth/authorized.js';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { createMemoryTokenStore, type TokenStore } from '../../src/auth/token-store.js';
import type { Credentials, TokenInfo } from '../../src/auth/types.js';
import { AuthorizationLostError, OAuthError, TokenStoreError } from '../../src/errors/index.js';
import { fakeTokenEndpoint, tokenBody } from './fake-token-endpoint.js';

const APP = { authUrl: 'http://auth.test', clientId: 'app', clientSecret: 'client-secret-of-app', owner: 'user:1' };
const LEASE = 300;
const EXCHANGED = { error: 'invalid_grant', error_description: 'The access token was already exchanged' };

/** A memory token store that fails every call while `down` is set. */
function flakyStore() {
  const memory = createMemoryTokenStore();
  const state = { down: false };
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (state.down) throw new TokenStoreError('the store is down');
      return call(...args);
    };
  const store: TokenStore = {
    get: guard(memory.get),
    compareAndSet: guard(memory.compareAndSet),
    acquire: guard(memory.acquire),
    release: guard(memory.release),
  };
  return { store, memory, state };
}

/** An `authorized` strategy holding the token `OLD`, sharing `store`, with the test's short lease. */
const fromOld = (store: TokenStore, options: Partial<AuthorizedOptions>) =>
  authorized({ ...APP, accessToken: 'OLD', tokenStore: store, refreshLease: LEASE, ...options });
const stored = async (store: TokenStore, key = 'user:1') => (await store.get(key))?.accessToken;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a refresh cut after the token endpoint answered', () => {
  it('the store failing as the new token is stored: the holder keeps it, and stores it once the store is back', async () => {
    const { store, memory, state } = flakyStore();
    const endpoint = fakeTokenEndpoint(() => ({ body: tokenBody('T1') }));
    // The store goes down once the server answered, before the token is stored.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await endpoint.fetch(input, init);
      state.down = true;
      return response;
    };
    const auth = fromOld(store, { fetch });
    const old = (await auth.credentials()) as Credentials;
    expect((await auth.refresh!(old)).token).toBe('T1');
    expect((await auth.credentials())?.token).toBe('T1');
    expect(await stored(memory)).toBeUndefined();
    state.down = false;
    await vi.waitFor(async () => expect(await stored(memory)).toBe('T1'), { timeout: 2_000 });
    expect(endpoint.calls).toHaveLength(1);
  });

  it('another instance refused ("already exchanged") adopts the token its holder stores within the lease', async () => {
    const { store, memory } = flakyStore();
    const endpoint = fakeTokenEndpoint(() => ({ status: 400, body: EXCHANGED }));
    const late = fromOld(store, { ...endpoint });
    const old = (await late.credentials()) as Credentials;
    const refreshed = Promise.all(Array.from({ length: 20 }, () => late.refresh!(old)));
    // The holder's store is back: its token lands while this instance waits.
    await sleep(LEASE / 3);
    await memory.compareAndSet('user:1', undefined, { accessToken: 'T1', tokenType: 'Bearer', scopes: [] });
    expect(new Set((await refreshed).map((c) => c.token))).toEqual(new Set(['T1']));
    expect(endpoint.calls).toHaveLength(1);
  });

  it('the new token gone: one AuthorizationLostError per instance after one exchange, then no more exchanges', async () => {
    const { store } = flakyStore();
    const endpoint = fakeTokenEndpoint(() => ({ status: 400, body: EXCHANGED }));
    const onAuthorizationLost = vi.fn(() => undefined);
    const instances = Array.from({ length: 3 }, () => fromOld(store, { onAuthorizationLost, ...endpoint }));
    const started = Date.now();
    const results = await Promise.all(
      instances.map(async (auth) => {
        const old = (await auth.credentials()) as Credentials;
        return Promise.allSettled(Array.from({ length: 20 }, () => auth.refresh!(old)));
      }),
    );
    const reasons = results.flat().map((r) => (r as PromiseRejectedResult).reason as AuthorizationLostError);
    expect(reasons).toHaveLength(60);
    for (const reason of reasons) {
      expect(reason).toBeInstanceOf(AuthorizationLostError);
      expect(reason).toBeInstanceOf(OAuthError);
      expect(reason).toMatchObject({
        code: 'AUTHORIZATION_LOST',
        error: 'invalid_grant',
        owner: 'user:1',
        status: 400,
      });
      expect(reason.cause).toBeInstanceOf(OAuthError);
      expect(reason.message).toMatch(/user:1 is lost.*already exchanged/);
    }
    // One error per instance, shared by its waiting requests; one exchange each, and the hook once each.
    expect(new Set(reasons).size).toBe(3);
    expect(endpoint.calls).toHaveLength(3);
    expect(onAuthorizationLost).toHaveBeenCalledTimes(3);
    // They waited one lease for a late holder, not more.
    expect(Date.now() - started).toBeLessThan(LEASE * 6);
    for (const auth of instances) {
      await expect(auth.credentials()).rejects.toBeInstanceOf(AuthorizationLostError);
    }
    expect(endpoint.calls).toHaveLength(3);
  });

  it('onAuthorizationLost giving a token: the requests go on with it, and it is stored for the others', async () => {
    const { store, memory } = flakyStore();
    const endpoint = fakeTokenEndpoint(() => ({ status: 400, body: EXCHANGED }));
    const saved: TokenInfo = { accessToken: 'SAVED', tokenType: 'Bearer', scopes: ['admin'] };
    const onAuthorizationLost = vi.fn(async () => saved);
    const auth = fromOld(store, { onAuthorizationLost, ...endpoint });
    const old = (await auth.credentials()) as Credentials;
    const all = await Promise.all(Array.from({ length: 10 }, () => auth.refresh!(old)));
    expect(new Set(all.map((c) => c.token))).toEqual(new Set(['SAVED']));
    expect(onAuthorizationLost).toHaveBeenCalledTimes(1);
    expect(await stored(memory)).toBe('SAVED');
    expect((await auth.credentials())?.token).toBe('SAVED');
  });

  it('onAuthorizationLost giving the lost token back: lost all the same, without another exchange', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ status: 400, body: EXCHANGED }));
    const onAuthorizationLost = vi.fn(
      async (): Promise<TokenInfo> => ({ accessToken: 'OLD', tokenType: 'Bearer', scopes: [] }),
    );
    const auth = authorized({ ...APP, accessToken: 'OLD', onAuthorizationLost, ...endpoint });
    const old = (await auth.credentials()) as Credentials;
    await expect(auth.refresh!(old)).rejects.toBeInstanceOf(AuthorizationLostError);
    await expect(auth.credentials()).rejects.toBeInstanceOf(AuthorizationLostError);
    expect(endpoint.calls).toHaveLength(1);
    expect(onAuthorizationLost).toHaveBeenCalledTimes(1);
  });

  it('without a shared store, an already exchanged token is lost at once, without waiting', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ status: 400, body: EXCHANGED }));
    const auth = authorized({ ...APP, accessToken: 'OLD', refreshLease: 60_000, ...endpoint });
    const old = (await auth.credentials()) as Credentials;
    await expect(auth.refresh!(old)).rejects.toBeInstanceOf(AuthorizationLostError);
  });

  it('another refusal stays a plain OAuthError, at once', async () => {
    const { store } = flakyStore();
    const endpoint = fakeTokenEndpoint(() => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The user of this token no longer exists' },
    }));
    const auth = authorized({ ...APP, accessToken: 'OLD', tokenStore: store, refreshLease: 60_000, ...endpoint });
    const old = (await auth.credentials()) as Credentials;
    const refused = await auth.refresh!(old).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OAuthError);
    expect(refused).not.toBeInstanceOf(AuthorizationLostError);
  });

  it('client credentials: a store failing as the token is stored leaves the holder its token', async () => {
    const { store, memory, state } = flakyStore();
    const endpoint = fakeTokenEndpoint((_, index) => ({ body: tokenBody(`T${index + 1}`) }));
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await endpoint.fetch(input, init);
      state.down = true;
      return response;
    };
    const auth = clientCredentials({ ...APP, tokenStore: store, refreshLease: LEASE, fetch });
    expect((await auth.credentials())?.token).toBe('T1');
    expect((await auth.credentials())?.token).toBe('T1');
    state.down = false;
    await vi.waitFor(async () => expect(await stored(memory, 'client:app:')).toBe('T1'), { timeout: 2_000 });
    expect(endpoint.calls).toHaveLength(1);
  });
});
