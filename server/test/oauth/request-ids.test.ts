/**
 * The token endpoint's refusals name their request as the API's errors do: the body's `request_id` is the answer's
 * `X-Request-Id`, the server's request log prints it, and the SDK's `OAuthError` carries it and names it.
 */
import { clientCredentials, createClient, OAuthError, password } from '@storefront-platform/sdk';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../src/seed/index.js';

const seeded = seed({ products: 2, orders: 0 });
const app = () => ({
  authUrl: server.origin,
  clientId: seeded.credentials.clientId,
  clientSecret: seeded.credentials.clientSecret,
});
const lines: string[] = [];
let server: StorefrontServer;

beforeAll(async () => {
  server = await createServer({ port: 0, data: structuredClone(seeded.dataset), log: (line) => lines.push(line) });
});
afterAll(() => server.close());

/** The log line of the request named `id`, once the server wrote it (after the answer's last byte). */
async function logLineOf(id: string): Promise<string | undefined> {
  for (let i = 0; i < 100; i++) {
    const line = lines.find((candidate) => candidate.endsWith(` id=${id}`));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

describe('request ids in the token endpoint’s errors', () => {
  /** The SDK's error for the first request of a client whose strategy the token endpoint refuses. */
  async function refusalOf(auth: ReturnType<typeof clientCredentials>): Promise<OAuthError> {
    const client = createClient({ baseUrl: server.baseUrl, auth, cache: false });
    const error = await client.root().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(OAuthError);
    return error as OAuthError;
  }

  it.each([
    ['a wrong client secret (401 invalid_client)', 401, () => clientCredentials({ ...app(), clientSecret: 'wrong' })],
    ['a wrong password (400 invalid_grant)', 400, () => password({ ...app(), username: 'nobody', password: 'wrong' })],
  ] as const)('%s: body, header, log line and SDK error name one request', async (_, status, strategy) => {
    const error = await refusalOf(strategy());
    expect(error.status).toBe(status);
    const id = error.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.requestId).toBe(id);
    expect(error.message).toContain(`[request ${id}]`);
    expect(error.body).toMatchObject({ error: error.error, request_id: id });
    expect(await logLineOf(id!)).toMatch(new RegExp(`^POST /oauth/token ${status} `));
  });

  it('keeps a sane id the client sent, in the header and the body', async () => {
    const response = await fetch(`${server.origin}/oauth/token`, {
      method: 'POST',
      headers: { 'x-request-id': 'app-chosen-id:1' },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).toBe('app-chosen-id:1');
    expect(await response.json()).toMatchObject({ error: 'invalid_client', request_id: 'app-chosen-id:1' });
  });

  it('names the request of a method the endpoint refuses', async () => {
    const response = await fetch(`${server.origin}/oauth/token`);
    expect(response.status).toBe(405);
    const body = (await response.json()) as { request_id?: string };
    expect(body.request_id).toBe(response.headers.get('x-request-id'));
  });
});
