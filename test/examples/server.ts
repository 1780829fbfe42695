/** A fresh reference server on port 0 and the options that point an example at it, with its output captured. */
import { createServer, type ServerOptions, type StorefrontServer } from 'storefront-sdk/server';
import type { ExampleOptions } from '../../examples/shared/options.js';

export interface ExampleServer {
  server: StorefrontServer;
  /** Moves the server's clock forward (token expiry, `updated_on`), so that tests need not wait. */
  advance(ms: number): void;
  /** Options for an example's `main`; `lines` receives its output. */
  options(lines: string[]): ExampleOptions;
}

export async function startExampleServer(options: ServerOptions = {}): Promise<ExampleServer> {
  let offset = 0;
  const server = await createServer({ port: 0, products: 75, clock: { now: () => Date.now() + offset }, ...options });
  const credentials = server.credentials;
  if (!credentials) throw new Error('the seeded server has no demo app');
  return {
    server,
    advance: (ms) => {
      offset += ms;
    },
    options: (lines) => ({
      baseUrl: server.baseUrl,
      authUrl: server.origin,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      log: (line) => lines.push(line),
    }),
  };
}
