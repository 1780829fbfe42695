/** What every token store does, as tests to run inside a `describe` on stores `make` creates (each one fresh). */
import type { TokenInfo, TokenStore } from '@storefront-platform/sdk';
import { expect, it } from 'vitest';

export const token = (accessToken: string): TokenInfo => ({ accessToken, tokenType: 'Bearer', scopes: ['admin'] });

export function tokenStoreContract(make: () => TokenStore) {
  it('stores a token only over the one it expects', async () => {
    const store = make();
    expect(await store.get('user:1')).toBeUndefined();
    expect(await store.compareAndSet('user:1', undefined, token('a'))).toBe(true);
    expect(await store.compareAndSet('user:1', undefined, token('b'))).toBe(false);
    expect(await store.compareAndSet('user:1', 'stale', token('b'))).toBe(false);
    expect(await store.get('user:1')).toEqual(token('a'));
    expect(await store.compareAndSet('user:1', 'a', token('b'))).toBe(true);
    expect((await store.get('user:1'))?.accessToken).toBe('b');
    expect(await store.get('user:2')).toBeUndefined();
  });

  it('lends the lease to one holder until released or expired', async () => {
    const store = make();
    const lease = await store.acquire('user:1', 60_000);
    expect(lease).toBeTypeOf('string');
    expect(await store.acquire('user:1', 60_000)).toBeUndefined();
    expect(await store.acquire('user:2', 60_000)).toBeTypeOf('string');
    await store.release('user:1', 'somebody else');
    expect(await store.acquire('user:1', 60_000)).toBeUndefined();
    await store.release('user:1', lease!);
    const short = await store.acquire('user:1', 50);
    expect(short).toBeTypeOf('string');
    await new Promise((resolve) => setTimeout(resolve, 120));
    // A crashed holder never releases: the lease expires.
    expect(await store.acquire('user:1', 60_000)).toBeTypeOf('string');
  });
}
