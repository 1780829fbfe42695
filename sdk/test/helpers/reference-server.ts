/**
 * The real reference server on port 0 with seeded demo data, and SDK clients authenticated against it with the
 * demo app's credentials (client credentials grant).
 */
import { type Client, type ClientOptions, clientCredentials, createClient } from 'storefront-sdk';
import { createServer, type StorefrontServer } from 'storefront-sdk/server';

export interface ReferenceServer {
  server: StorefrontServer;
  /** A client of the demo app with the given scope (default `admin`). */
  client(options?: Partial<ClientOptions> & { scope?: 'admin' | 'public' }): Client;
}

export async function startReferenceServer(products = 45): Promise<ReferenceServer> {
  const server = await createServer({ port: 0, products });
  const credentials = server.credentials;
  if (!credentials) throw new Error('the seeded server has no demo app');
  return {
    server,
    client({ scope = 'admin', ...options } = {}) {
      const auth = clientCredentials({
        authUrl: server.origin,
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        scope,
      });
      return createClient({ baseUrl: server.baseUrl, auth, retry: false, ...options });
    },
  };
}
