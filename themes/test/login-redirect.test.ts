/**
 * `login --password` against a server whose token endpoint answers 307 to another origin: the password does not
 * follow (the SDK's token requests follow no redirect), and the login fails saying why. Real HTTP servers on port
 * 0: `redirecting` is the origin the developer gives, `elsewhere` another origin that records what reaches it.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN_TESTS, runCli } from './helpers/cli.js';
import { DEMO } from './helpers/server.js';

const received: string[] = [];
let elsewhere: Server;
let redirecting: Server;
let origin: string;
let config: string;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  config = await mkdtemp(join(tmpdir(), 'storefront-login-redirect-'));
  elsewhere = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push(`${request.method} ${request.url} ${body}`);
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"error":"invalid_grant"}');
    });
  });
  const elsewhereOrigin = await listen(elsewhere);
  redirecting = createServer((request, response) => {
    request.resume();
    response.writeHead(307, { location: `${elsewhereOrigin}${request.url}` });
    response.end();
  });
  origin = await listen(redirecting);
});

afterAll(async () => {
  await Promise.all([elsewhere, redirecting].map((server) => new Promise((resolve) => server.close(resolve))));
  await rm(config, { recursive: true, force: true });
});

describe('login --password against a token endpoint that redirects to another origin', BIN_TESTS, () => {
  it('sends the password nowhere else, and fails saying the redirect was not followed', async () => {
    const login = await runCli(['login', '--password'], {
      config,
      env: { STOREFRONT_URL: origin, STOREFRONT_CLIENT_ID: DEMO.clientId, STOREFRONT_CLIENT_SECRET: DEMO.clientSecret },
      input: `demo\n${DEMO.password}\n`,
    });
    expect(received).toEqual([]);
    expect(login.code).not.toBe(0);
    expect(login.stderr).toMatch(/307.*redirect to http:\/\/127\.0\.0\.1:\d+\/oauth\/token, not followed/);
    expect(login.stderr).not.toContain(DEMO.password);
  });
});
