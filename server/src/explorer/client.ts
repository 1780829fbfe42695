/**
 * The explorer's OAuth client. A page in a browser keeps no secret, so it is registered as a public client of
 * the `browser` kind: it signs users in with the implicit grant, to its redirect URIs exactly (port included),
 * and its secret is random and never shown, so nobody uses the grants that need one (client credentials, the
 * JWT bearer refresh).
 */
import { randomSecret } from '../oauth/secrets.js';
import type { AppRow, Store } from '../store/types.js';

/** The client id the explorer page signs in with. */
export const EXPLORER_CLIENT_ID = 'storefront-explorer';

/** Where the explorer is served below the server's origin. */
export const EXPLORER_PATH = '/explorer';

const LOOPBACK = /^http:\/\/(?:127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * The redirect URIs of the explorer: `{origin}/explorer/`, and the same on `localhost` when the origin is a
 * loopback address, since people type `localhost:4000` as often as the `127.0.0.1:4000` the banner shows. The
 * page sends its own origin's, so either works.
 */
export function explorerRedirectUris(origin: string): string[] {
  const uris = [`${origin}${EXPLORER_PATH}/`];
  const loopback = LOOPBACK.exec(origin);
  if (loopback) uris.push(`http://localhost${loopback[1] ?? ''}${EXPLORER_PATH}/`);
  return uris;
}

/** Whether `app` is the explorer's client rather than an app of the data's own. */
export function isExplorerClient(app: AppRow): boolean {
  return app.client_id === EXPLORER_CLIENT_ID;
}

/**
 * The data's demo app, whose credentials the server prints and the mock hands out: its first app other than the
 * explorer's client (which the server registers at every start, after the data's own).
 */
export function demoApp(store: Pick<Store, 'all'>): AppRow | undefined {
  return store.all('apps').find((app) => !isExplorerClient(app));
}

/**
 * Adds the explorer's client to the data, or points an existing one at this origin (it may have changed since
 * the last start); no write when it is up to date. Without a user nobody could sign in: no client then.
 */
export async function registerExplorerClient(store: Store, origin: string): Promise<void> {
  const redirectUris = explorerRedirectUris(origin);
  const existing = store.where('apps', 'client_id', EXPLORER_CLIENT_ID)[0];
  // Data of older versions registered it without a kind, or with the redirect URIs of another origin.
  const current = existing?.kind === 'browser' && existing.redirect_uris.join(' ') === redirectUris.join(' ');
  if (current) return;
  // Client-credentials tokens would act as the owner; with a secret nobody is shown, there are none.
  const owner = store.all('users')[0];
  if (!existing && !owner) return;
  await store.write((tx) => {
    if (existing) tx.update('apps', existing.id, { redirect_uris: redirectUris, kind: 'browser' });
    else {
      tx.insert('apps', {
        name: 'Storefront API explorer',
        client_id: EXPLORER_CLIENT_ID,
        client_secret: randomSecret(),
        redirect_uris: redirectUris,
        // Its redirect URIs match exactly, port included: a token must reach this server's page, no other.
        kind: 'browser',
        owner_id: owner!.id,
      });
    }
  });
}
