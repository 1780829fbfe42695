/**
 * The SDK's `TokenStore` over the session file, so that every run of storefront-themes on this machine (a
 * `watch` in one terminal, a `push` in another) uses one token: when one renews it, the others adopt the renewed
 * one instead of exchanging a token the renewal revoked. The refresh lease is a lock file created exclusively
 * (`wx`), which only one process can do; a holder that died frees it when its time is up.
 */
import { randomUUID } from 'node:crypto';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import type { TokenStore } from '@storefront-platform/sdk';
import type { ConfigStore, Session } from '../config/store.js';

interface Lease {
  id: string;
  until: number;
}

/** A token store of one session: every key (there is one, the session's owner) is that session. */
export function sessionTokenStore(store: ConfigStore, session: Session): TokenStore {
  const lockFile = `${store.sessionFile}.lock`;
  const readLease = async () => JSON.parse(await readFile(lockFile, 'utf8').catch(() => 'null')) as Lease | null;
  return {
    async get() {
      return (await store.session())?.token;
    },
    async compareAndSet(_key, expected, next) {
      // Writers hold the lease, so reading then writing is not raced by another run.
      const current = await store.session();
      if (current?.token?.accessToken !== expected) return false;
      await store.saveSession({ ...(current ?? session), token: next });
      return true;
    },
    async acquire(_key, ttlMs) {
      const lease: Lease = { id: randomUUID(), until: Date.now() + ttlMs };
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          await writeFile(lockFile, JSON.stringify(lease), { flag: 'wx', mode: 0o600 });
          return lease.id;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          const held = await readLease();
          if (held && held.until > Date.now()) return undefined;
          // Left by a run that died while renewing: take it over once.
          await unlink(lockFile).catch(() => {});
        }
      }
      return undefined;
    },
    async release(_key, id) {
      if ((await readLease())?.id === id) await unlink(lockFile).catch(() => {});
    },
  };
}
