/**
 * The real reference server for clients we did not write: seeded demo data on a free port, started before a
 * file's tests and closed after them, with the demo app and user (password included).
 */
import { createServer, type ServerCredentials, type StorefrontServer } from '@storefront-platform/server';
import { afterAll, beforeAll } from 'vitest';

/** Fixed, so that the password grant has something to log in with. */
export const DEMO_PASSWORD = 'demo password for outside clients';

export interface ClientsServer {
  server: StorefrontServer;
  credentials: ServerCredentials & { password: string };
}

/** Call at the top of a test file; the returned function gives the running server inside tests. */
export function useClientsServer(): () => ClientsServer {
  let running: ClientsServer | undefined;
  beforeAll(async () => {
    const server = await createServer({ port: 0, products: 6, demo: { password: DEMO_PASSWORD } });
    if (!server.credentials) throw new Error('the seeded server has no demo credentials');
    running = { server, credentials: { ...server.credentials, password: DEMO_PASSWORD } };
  });
  afterAll(async () => {
    await running?.server.close();
  });
  return () => {
    if (!running) throw new Error('useClientsServer: the server is not running (use it inside tests)');
    return running;
  };
}
