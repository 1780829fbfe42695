/**
 * Clients that misbehave cost the server a log line at most (issue #29): a client that leaves mid-body is one
 * line of the request log, not a stack; a body declared over the limit with `Expect: 100-continue` is refused
 * before `100 Continue`, so it never travels.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type StorefrontServer } from '../src/create-server.js';
import { parseRawResponse, rawExchange } from './helpers/raw-connection.js';
import { clientToken } from './helpers/test-server.js';

let server: StorefrontServer;
const log: string[] = [];
beforeAll(async () => {
  server = await createServer({ port: 0, products: 0, log: (line) => log.push(line) });
});
afterAll(() => server.close());

/** Sends the head of a request and part of its body, then closes the connection; resolves once the server saw it. */
async function leaveMidBody(path: string, headers: Record<string, string>): Promise<void> {
  const { hostname, port } = new URL(server.origin);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  const head = Object.entries({ host: 'x', 'content-length': '1000', ...headers }).map(([n, v]) => `${n}: ${v}\r\n`);
  socket.write(`POST ${path} HTTP/1.1\r\n${head.join('')}\r\ngrant_type=client_`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  socket.destroy();
  await vi.waitFor(() => expect(log.some((line) => line.startsWith(`POST ${path} aborted`))).toBe(true));
}

describe('a client that leaves mid-body', () => {
  it('is one line of the request log, on the token endpoint and on the API, and no error log', async () => {
    const token = await clientToken(server);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      log.length = 0;
      await leaveMidBody('/oauth/token', { 'content-type': 'application/x-www-form-urlencoded' });
      await leaveMidBody('/v1/themes/1/templates', {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
      });
      // Whatever else would come has come by now.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(/^POST \/oauth\/token aborted \d+\.\dms$/);
    expect(log[1]).toMatch(/^POST \/v1\/themes\/1\/templates aborted \d+\.\dms$/);
  });
});

describe('Expect: 100-continue', () => {
  const head = (path: string, length: number, type: string, token?: string) =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n` +
    `${token ? `Authorization: Bearer ${token}\r\n` : ''}Expect: 100-continue\r\n\r\n`;

  it.each([
    ['/oauth/token', 'application/x-www-form-urlencoded', false],
    ['/v1/themes/1/templates', 'application/json', true],
  ])(
    'refuses a body declared over the limit on %s with 413 and no 100 Continue, then closes',
    async (path, type, auth) => {
      const token = auth ? await clientToken(server) : undefined;
      const { received } = await rawExchange(server.origin, [head(path, 99_999_999, type, token)]);
      expect(received).not.toContain('100 Continue');
      const response = parseRawResponse(received);
      expect(response.status).toBe(413);
      expect(response.headers.connection).toBe('close');
    },
  );

  it('sends 100 Continue when the body is read, then answers', async () => {
    const body = 'grant_type=client_credentials&scope=public';
    const { clientId, clientSecret } = server.credentials!;
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    const request =
      `POST /oauth/token HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${basic}\r\nConnection: close\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`;
    const { received } = await rawExchange(server.origin, [request, body], 100);
    expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
  });

  it('answers a request refused before its body is read without 100 Continue', async () => {
    const { received } = await rawExchange(server.origin, [head('/v1/themes/1/templates', 20, 'application/json')]);
    expect(received).not.toContain('100 Continue');
    expect(parseRawResponse(received).status).toBe(401);
  });
});
