/** The token store over the session file that lets concurrent runs share one token. */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionTokenStore } from '../src/auth/session-token-store.js';
import { ConfigStore, type Session } from '../src/config/store.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function configStore(): Promise<ConfigStore> {
  const dir = await mkdtemp(join(tmpdir(), 'storefront-themes-store-'));
  dirs.push(dir);
  return new ConfigStore(join(dir, 'storefront-themes'));
}

const token = (accessToken: string) => ({ accessToken, tokenType: 'Bearer' as const, scopes: ['admin'], expiresAt: 1 });
const session: Session = { url: 'http://127.0.0.1:4000', grant: 'password', user: 'Dana Demo', token: token('one') };

describe('sessionTokenStore', () => {
  it('replaces the stored token only when it is still the expected one, keeping the file private', async () => {
    const store = await configStore();
    await store.saveSession(session);
    const tokens = sessionTokenStore(store, session);
    expect(await tokens.compareAndSet('k', 'other', token('two'))).toBe(false);
    expect(await tokens.compareAndSet('k', 'one', token('two'))).toBe(true);
    expect(await tokens.get('k')).toEqual(token('two'));
    expect((await store.session())?.user).toBe('Dana Demo');
    expect((await stat(store.sessionFile)).mode & 0o777).toBe(0o600);
  });

  it('gives the refresh lease to one run at a time, and takes over one whose time is up', async () => {
    const store = await configStore();
    await store.saveSession(session);
    const [first, second] = [sessionTokenStore(store, session), sessionTokenStore(store, session)];
    const lease = await first.acquire('k', 60_000);
    expect(lease).toEqual(expect.any(String));
    expect(await second.acquire('k', 60_000)).toBeUndefined();
    await second.release('k', 'not the holder');
    expect(await second.acquire('k', 60_000)).toBeUndefined();
    await first.release('k', lease!);
    const next = await second.acquire('k', -1);
    expect(next).toEqual(expect.any(String));
    // Expired at once (a holder that died): the next run takes it over.
    expect(await first.acquire('k', 60_000)).toEqual(expect.any(String));
  });
});
