/**
 * The token keeper's waits for another instance's refresh run on the strategy's `now`, the clock the memory store's
 * leases expire on: a test that moves it sees the deadline pass without waiting it out.
 */
import { describe, expect, it } from 'vitest';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { createMemoryTokenStore, type TokenStore } from '../../src/auth/token-store.js';
import { TokenStoreError } from '../../src/errors/index.js';
import { fakeTokenEndpoint, tokenBody } from './fake-token-endpoint.js';

describe("the refresh lease's deadlines", () => {
  it("give up on a lease held past twice its length by the keeper's clock, not the wall's", async () => {
    let time = 1_000_000;
    // Ten seconds a reading: the 2-minute deadline of a 1-minute lease passes after a dozen polls of 50 ms.
    const now = () => (time += 10_000);
    const memory = createMemoryTokenStore(now);
    // Another instance holds the lease and never stores a token.
    const held: TokenStore = { ...memory, acquire: async () => undefined };
    const endpoint = fakeTokenEndpoint(() => ({ body: tokenBody('T1') }));
    const auth = clientCredentials({
      authUrl: 'http://auth.test',
      clientId: 'app',
      clientSecret: 'client-secret-of-app',
      tokenStore: held,
      refreshLease: 60_000,
      now,
      fetch: endpoint.fetch,
    });
    const started = performance.now();
    await expect(auth.credentials()).rejects.toThrow(TokenStoreError);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(endpoint.calls).toHaveLength(0);
  });
});
