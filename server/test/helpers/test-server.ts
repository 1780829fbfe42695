import { afterAll, beforeAll } from 'vitest';
import { createServer, type ServerOptions, type StorefrontServer } from '../../src/create-server.js';

/**
 * A reference server for the current test file: seeded in memory (30 products unless told otherwise),
 * on a free port, started before the file's tests and closed after them. Call at the top of a file or
 * `describe`; the returned function gives the running server inside tests.
 */
export function useTestServer(options: ServerOptions = {}): () => StorefrontServer {
  let server: StorefrontServer | undefined;
  beforeAll(async () => {
    server = await createServer({ port: 0, products: 30, ...options });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('useTestServer: the server is not running (use it inside tests)');
    return server;
  };
}
