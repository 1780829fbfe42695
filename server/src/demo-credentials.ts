/**
 * The demo app and user of existing data: the credentials a start was given go into them, and the rest is read
 * back, so that `createServer` and `createHandlers` can tell their caller how to sign in.
 */
import { addMissingPreviewKeys } from './api/themes/theme.js';
import { demoApp } from './explorer/client.js';
import { hashPassword } from './oauth/secrets.js';
import type { DemoCredentials } from './seed/index.js';
import type { Store } from './store/types.js';

/** Demo credentials to use instead of generated ones. */
export type DemoOptions = Partial<DemoCredentials>;

/** The demo credentials of a running server. */
export interface ServerCredentials extends Omit<DemoCredentials, 'password'> {
  /** `undefined` when the data already existed and no password was given: only its hash is stored. */
  password: string | undefined;
}

/** Existing data: what older data lacks, then the demo credentials. */
export async function upgradeExisting(store: Store, demo: DemoOptions): Promise<ServerCredentials | undefined> {
  await addMissingPreviewKeys(store);
  return applyDemo(store, demo);
}

/** Puts the given demo credentials into existing data, and reads back the rest. */
async function applyDemo(store: Store, demo: DemoOptions): Promise<ServerCredentials | undefined> {
  const app = demoApp(store);
  const user = app && store.get('users', app.owner_id);
  if (!app || !user) return undefined;
  const appPatch = {
    // Seeded before kinds existed: the kind it is seeded with now, so that the themes CLI can still sign in.
    ...(app.kind === undefined ? { kind: 'native' as const } : {}),
    ...(demo.clientId === undefined ? {} : { client_id: demo.clientId }),
    ...(demo.clientSecret === undefined ? {} : { client_secret: demo.clientSecret }),
    ...(demo.redirectUris === undefined ? {} : { redirect_uris: demo.redirectUris }),
  };
  const userPatch = {
    ...(demo.login === undefined ? {} : { login: demo.login }),
    // Hashed outside the write so that the ~80 ms of scrypt do not hold the write queue.
    ...(demo.password === undefined ? {} : { password_hash: hashPassword(demo.password) }),
  };
  if (Object.keys(appPatch).length || Object.keys(userPatch).length) {
    await store.write((tx) => {
      if (Object.keys(appPatch).length) tx.update('apps', app.id, appPatch);
      if (Object.keys(userPatch).length) tx.update('users', user.id, userPatch);
    });
  }
  const current = store.get('apps', app.id)!;
  return {
    clientId: current.client_id,
    clientSecret: current.client_secret,
    login: store.get('users', user.id)!.login,
    password: demo.password,
    redirectUris: current.redirect_uris,
  };
}
