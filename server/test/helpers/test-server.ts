import type { ClientCredentials } from '@storefront-platform/sdk';
import { basicAuthorization } from '@storefront-platform/sdk/internal';
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

/**
 * `POST {origin}/oauth/token` with the grant `params` as a form, the client (when given) authenticated with
 * HTTP Basic the way the SDK does it (RFC 6749 §2.3.1, App. B); without one the grant must prove itself.
 */
export function tokenRequest(
  origin: string,
  params: Record<string, string>,
  client?: ClientCredentials,
): Promise<Response> {
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
  if (client) headers.set('authorization', basicAuthorization(client));
  return fetch(`${origin}/oauth/token`, { method: 'POST', headers, body: new URLSearchParams(params) });
}

/** A seeded service (a reference server or an MSW mock): where it answers, and its demo app. */
export interface TokenService {
  origin: string;
  credentials: ClientCredentials | undefined;
}

/** The access token of a grant the demo app of `service` requests; throws (with the answer) unless it is a 200. */
export async function grantedToken(service: TokenService, params: Record<string, string>): Promise<string> {
  if (!service.credentials) throw new Error('grantedToken: the service has no demo app (it was not seeded)');
  const response = await tokenRequest(service.origin, params, service.credentials);
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** An access token of the client credentials grant for the demo app of `service` (admin unless told otherwise). */
export function clientToken(service: TokenService, scope: 'admin' | 'public' = 'admin'): Promise<string> {
  return grantedToken(service, { grant_type: 'client_credentials', scope });
}
