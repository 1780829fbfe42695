/**
 * A refresh cut after the token endpoint answered: a store that fails while the new token is stored, and a token
 * exchanged by an instance that kept the new one to itself. The holder goes on with its token and stores it once
 * the store is back; the others adopt it, or get one `AuthorizationLostError` after one exchange.
 */
import { describe, expect, it, vi } from 'vitest';
import { manualClock } from '../../../test/support/manual-clock.js';
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

/**
 * `store` seen through an instance's own clock, which moves `step` ms at each of its reads and only then: how long
 * an instance watches the store for a late holder is then a count of reads, whatever the machine's speed.
 */
function readingClock(store: TokenStore, step: number) {
  const clock = manualClock();
  const reading: TokenStore = {
    ...store,
    get: (key) => {
      clock.advance(step);
      return store.get(key);
    },
  };
  return { now: clock.now, store: reading };
}

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
    // The holder's store is back: its token lands while this instance watches, after its refusal.
    const landing: TokenStore = {
      ...store,
      async get(key) {
        if (endpoint.calls.length === 1 && !(await memory.get(key))) {
          await memory.compareAndSet(key, undefined, { accessToken: 'T1', tokenType: 'Bearer', scopes: [] });
        }
        return store.get(key);
      },
    };
    const late = fromOld(landing, { ...endpoint });
    const old = (await late.credentials()) as Credentials;
    const refreshed = await Promise.all(Array.from({ length: 20 }, () => late.refresh!(old)));
    expect(new Set(refreshed.map((c) => c.token))).toEqual(new Set(['T1']));
    expect(endpoint.calls).toHaveLength(1);
  });

  it('the new token gone: one AuthorizationLostError per instance after one exchange, then no more exchanges', async () => {
    const { store } = flakyStore();
    const endpoint = fakeTokenEndpoint(() => ({ status: 400, body: EXCHANGED }));
    const onAuthorizationLost = vi.fn(() => undefined);
    const clocks = Array.from({ length: 3 }, () => readingClock(store, LEASE / 10));
    const instances = clocks.map((clock) => fromOld(clock.store, { onAuthorizationLost, now: clock.now, ...endpoint }));
    const started = clocks.map((clock) => clock.now());
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
    // Each watched the store for a late holder one lease of its own clock, not more.
    for (const [n, clock] of clocks.entries()) {
      expect(clock.now() - started[n]!).toBeGreaterThanOrEqual(LEASE);
      expect(clock.now() - started[n]!).toBeLessThan(2 * LEASE);
    }
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
