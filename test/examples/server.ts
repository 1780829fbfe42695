/** A fresh reference server on port 0 and the options that point an example at it, with its output captured. */
import { createServer, type ServerOptions, type StorefrontServer } from '@storefront-platform/server';
import type { ExampleOptions } from '../../examples/shared/options.js';
import { shiftedClock } from '../support/manual-clock.js';

export interface ExampleServer {
  server: StorefrontServer;
  /** Moves the server's clock forward (token expiry, `updated_on`), so that tests need not wait. */
  advance(ms: number): void;
  /** Options for an example's `main`; `lines` receives its output. */
  options(lines: string[]): ExampleOptions;
}

export async function startExampleServer(options: ServerOptions = {}): Promise<ExampleServer> {
  const clock = shiftedClock();
  const server = await createServer({ port: 0, products: 75, clock, ...options });
  const credentials = server.credentials;
  if (!credentials) throw new Error('the seeded server has no demo app');
  return {
    server,
    advance: clock.advance,
    options: (lines) => ({
      baseUrl: server.baseUrl,
      authUrl: server.origin,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      log: (line) => lines.push(line),
    }),
  };
}
