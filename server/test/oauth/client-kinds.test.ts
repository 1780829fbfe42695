/**
 * Client kinds decide the redirect rule: only a native app's loopback redirect accepts any port. The explorer, a
 * browser page, gets its token at its own redirect URI exactly, so that a crafted link cannot send an admin token
 * to another local port (issue #29).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { EXPLORER_CLIENT_ID } from '../../src/explorer/client.js';
import { seed } from '../../src/seed/index.js';
import { storedRows, writeVersion1 } from '../helpers/data-files.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { hiddenFields } from './fixture.js';

const PASSWORD = 'demo password';
const tempDir = useTempDir();
const servers: StorefrontServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Parameters<typeof createServer>[0] = {}): Promise<StorefrontServer> {
  const server = await createServer({ port: 0, products: 3, demo: { password: PASSWORD }, ...options });
  servers.push(server);
  return server;
}

/** The user approves an implicit-grant request of `clientId` for `redirectUri`, as the consent form posts it. */
function approve(server: StorefrontServer, clientId: string, redirectUri: string): Promise<Response> {
  return fetch(`${server.origin}/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      response_type: 'token',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'admin',
      login: server.credentials!.login,
      password: PASSWORD,
      decision: 'approve',
    }),
    redirect: 'manual',
  });
}

describe('the redirect rule by client kind', () => {
  it("refuses the explorer's redirect on another loopback port, and gives no token there", async () => {
    const server = await start();
    const refused = await approve(server, EXPLORER_CLIENT_ID, 'http://127.0.0.1:6666/explorer/');
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(await refused.text()).toContain('not registered');
    const portless = await approve(server, EXPLORER_CLIENT_ID, 'http://127.0.0.1/explorer/');
    expect(portless.status).toBe(400);
  });

  it("redirects the explorer's sign-in to its own origin, token in the fragment", async () => {
    const server = await start();
    const approved = await approve(server, EXPLORER_CLIENT_ID, `${server.origin}/explorer/`);
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toMatch(
      new RegExp(`^${server.origin.replaceAll('.', '\\.')}/explorer/#access_token=`),
    );
  });

  it('keeps the any-port rule for the demo app, a native app (the themes CLI signs in with it)', async () => {
    const server = await start({ demo: { password: PASSWORD, redirectUris: ['http://127.0.0.1/callback'] } });
    const demo = server.store.where('apps', 'client_id', server.credentials!.clientId)[0]!;
    expect(demo.kind).toBe('native');
    const page = await fetch(
      `${server.origin}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: demo.client_id,
        redirect_uri: 'http://127.0.0.1:51234/callback',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`,
    );
    expect(page.status).toBe(200);
    const approved = await fetch(`${server.origin}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...hiddenFields(await page.text()),
        login: server.credentials!.login,
        password: PASSWORD,
        decision: 'approve',
      }),
      redirect: 'manual',
    });
    expect(approved.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:51234\/callback\?code=/);
  });

  it('matches exactly for an app registered without a kind, other than the demo app', async () => {
    const { dataset } = seed({ products: 3, password: PASSWORD });
    dataset.apps.push({
      id: 'legacy',
      name: 'Legacy app',
      client_id: 'legacy-app',
      client_secret: 'legacy secret',
      redirect_uris: ['http://127.0.0.1:8080/callback'],
      owner_id: '1',
    });
    const server = await start({ data: dataset });
    expect((await approve(server, 'legacy-app', 'http://127.0.0.1:6666/callback')).status).toBe(400);
    // Registered exactly: the answer goes back, a refusal of the implicit grant (a web app is not registered for it).
    const exact = await approve(server, 'legacy-app', 'http://127.0.0.1:8080/callback');
    expect(exact.status).toBe(303);
    expect(exact.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:8080\/callback#error=unauthorized_client&/);
  });
});

describe('data written before client kinds', () => {
  it('is upgraded at the start: the explorer becomes a browser client, the demo app a native one', async () => {
    const path = join(await tempDir(), 'db.json');
    const { dataset } = seed({ products: 3, password: PASSWORD });
    // As older versions wrote them: no kind, the explorer registered for another port.
    for (const app of dataset.apps) delete app.kind;
    dataset.apps.push({
      id: 'explorer',
      name: 'Storefront API explorer',
      client_id: EXPLORER_CLIENT_ID,
      client_secret: 'never shown',
      redirect_uris: ['http://127.0.0.1:6666/explorer/'],
      owner_id: '1',
    });
    await writeVersion1(path, dataset);
    const server = await start({ data: path });
    const refused = await approve(server, EXPLORER_CLIENT_ID, 'http://127.0.0.1:6666/explorer/');
    expect(refused.status).toBe(400);
    await server.close();
    const kinds = (await storedRows(path, 'apps')).map((app) => [app.client_id, app.kind]);
    expect(kinds).toEqual([
      [dataset.apps[0]!.client_id, 'native'],
      [EXPLORER_CLIENT_ID, 'browser'],
    ]);
  });
});
