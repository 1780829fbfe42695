/**
 * The real reference server on port 0 with seeded demo data and a clock the tests move by hand, and SDK clients
 * authenticated against it with the demo app's credentials (client credentials grant).
 */
import { type Client, type ClientOptions, clientCredentials, createClient } from '@storefront-platform/sdk';
import { createServer, type ServerCredentials, type StorefrontServer } from '@storefront-platform/server';
import { type ManualClock, manualClock } from '../../../test/support/manual-clock.js';

/** What {@link startReferenceServer} seeds and how long its tokens live. */
export interface ReferenceServerOptions {
  /** Products seeded per shop (default 12). */
  products?: number;
  /** Lifetime of access tokens in seconds of {@link ReferenceServer.clock} time (default: the server's). */
  tokenTtl?: number;
}

export interface ReferenceServer {
  server: StorefrontServer;
  /** The demo app and user, the user's password included. */
  credentials: ServerCredentials & { password: string };
  /** The server's clock: it stands still until a test advances it. */
  clock: ManualClock;
  /** A client of the demo app with the given scope (default `admin`), without retries. */
  client(options?: Partial<ClientOptions> & { scope?: 'admin' | 'public' }): Client;
}

export async function startReferenceServer({
  products = 12,
  tokenTtl,
}: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const clock = manualClock();
  const server = await createServer({ port: 0, products, tokenTtl, clock, demo: { password: 'demo password' } });
  const seeded = server.credentials;
  if (!seeded?.password) throw new Error('the seeded server has no demo credentials');
  const credentials = { ...seeded, password: seeded.password };
  return {
    server,
    credentials,
    clock,
    client({ scope = 'admin', ...options } = {}) {
      const { clientId, clientSecret } = credentials;
      const auth = clientCredentials({ authUrl: server.origin, clientId, clientSecret, scope });
      return createClient({ baseUrl: server.baseUrl, auth, retry: false, ...options });
    },
  };
}
