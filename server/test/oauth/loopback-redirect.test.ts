/**
 * RFC 8252 §7.3: in the code flow of a native app, a registered loopback redirect URI (IP literal or `localhost`)
 * accepts any port; every other URI, the implicit grant, and every URI of another kind of client (the explorer's, a
 * browser page's) match exactly. `redirectUris` (`--redirect-uri`) registers more for the demo app.
 */
import { authorizeUrl, exchangeCode } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { isRegisteredRedirectUri } from '../../src/oauth/redirect-uris.js';
import { useTestServer } from '../helpers/test-server.js';
import { approveAt, hiddenFields } from './fixture.js';

describe('isRegisteredRedirectUri', () => {
  const registered = [
    'http://127.0.0.1/callback',
    'http://[::1]:8080/cb?app=1',
    'http://localhost/callback',
    'https://app.example/callback',
  ];

  it.each([
    ['the registered URI itself', 'http://127.0.0.1/callback'],
    ['another port on 127.0.0.1', 'http://127.0.0.1:51234/callback'],
    ['another port on [::1], query kept', 'http://[::1]:9/cb?app=1'],
    ['no port where one was registered', 'http://[::1]/cb?app=1'],
    ['another port on localhost (a dev server: Vite on 5173)', 'http://localhost:5173/callback'],
  ])('accepts %s', (_, uri) => {
    expect(isRegisteredRedirectUri(registered, uri, true)).toBe(true);
  });

  it.each([
    ['another port on 127.0.0.1', 'http://127.0.0.1:51234/callback'],
    ['another port on [::1]', 'http://[::1]:9/cb?app=1'],
    ['no port where one was registered', 'http://[::1]/cb?app=1'],
  ])('refuses %s for a client that is not native', (_, uri) => {
    expect(isRegisteredRedirectUri(registered, uri, false)).toBe(false);
    expect(isRegisteredRedirectUri(registered, 'http://127.0.0.1/callback', false)).toBe(true);
  });

  it.each([
    ['another path', 'http://127.0.0.1:51234/other'],
    ['a path that only normalises to the registered one', 'http://127.0.0.1:51234/x/../callback'],
    ['another query', 'http://[::1]:9/cb?app=2'],
    ['https on a loopback address', 'https://127.0.0.1:51234/callback'],
    ['localhost for a registered IP literal', 'http://localhost:51234/cb?app=1'],
    ['another loopback address than registered', 'http://127.0.0.2:51234/callback'],
    ['another port of a non-loopback URI', 'https://app.example:8443/callback'],
    ['a port with credentials', 'http://user@127.0.0.1:51234/callback'],
    ['garbage', 'not a url'],
  ])('refuses %s', (_, uri) => {
    expect(isRegisteredRedirectUri(registered, uri, true)).toBe(false);
  });
});

describe('the authorization code flow through a loopback redirect on a free port', () => {
  const server = useTestServer({ demo: { password: 'demo password', redirectUris: ['http://127.0.0.1/callback'] } });

  it('shows the consent page, redirects to that port and exchanges the code for the same URI', async () => {
    const { origin, credentials } = server();
    const { clientId, clientSecret, login } = credentials!;
    const redirectUri = 'http://127.0.0.1:51234/callback';
    const request = await authorizeUrl({ authUrl: origin, clientId, redirectUri, scope: 'admin' });
    const page = await fetch(request.url);
    expect(page.status).toBe(200);
    const approved = await fetch(`${origin}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...hiddenFields(await page.text()),
        login,
        password: 'demo password',
        decision: 'approve',
      }),
      redirect: 'manual',
    });
    const callbackUrl = approved.headers.get('location')!;
    expect(callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:51234\/callback\?code=/);
    const token = await exchangeCode({
      authUrl: origin,
      clientId,
      clientSecret,
      redirectUri,
      callbackUrl,
      state: request.state,
      codeVerifier: request.codeVerifier!,
    });
    expect(token.scopes).toEqual(['admin']);
  });

  it('still refuses another path on the loopback address', async () => {
    const { origin, credentials } = server();
    const request = await authorizeUrl({
      authUrl: origin,
      clientId: credentials!.clientId,
      redirectUri: 'http://127.0.0.1:51234/elsewhere',
    });
    const page = await fetch(request.url, { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('not registered');
  });
});

/** Signs in as a page at `redirectUri` would with the SDK (code flow, PKCE, no secret: a public client). */
async function signInAt(origin: string, clientId: string, login: string, redirectUri: string) {
  const request = await authorizeUrl({ authUrl: origin, clientId, redirectUri, scope: 'admin' });
  const page = await fetch(request.url);
  if (page.status !== 200) return { status: page.status, text: await page.text() };
  const callbackUrl = await approveAt(request.url, login, 'demo password');
  expect(callbackUrl.startsWith(`${redirectUri}?code=`)).toBe(true);
  const token = await exchangeCode({
    authUrl: origin,
    clientId,
    redirectUri,
    callbackUrl,
    state: request.state,
    codeVerifier: request.codeVerifier!,
  });
  return { status: 200, token };
}

describe('a dev server signing in with the demo app', () => {
  const server = useTestServer({
    demo: { password: 'demo password' },
    redirectUris: ['http://192.168.1.20:5173/callback'],
  });

  it("works from Vite's default address with the seeded redirect URIs", async () => {
    const { origin, credentials } = server();
    const result = await signInAt(origin, credentials!.clientId, credentials!.login, 'http://localhost:5173/callback');
    expect(result.token?.scopes).toEqual(['admin']);
  });

  it('works from an address registered with redirectUris, and not from another one', async () => {
    const { origin, credentials } = server();
    const { clientId, login } = credentials!;
    const registered = await signInAt(origin, clientId, login, 'http://192.168.1.20:5173/callback');
    expect(registered.token?.scopes).toEqual(['admin']);
    const other = await signInAt(origin, clientId, login, 'http://192.168.1.21:5173/callback');
    expect(other.status).toBe(400);
    expect(other.text).toContain('--redirect-uri http://192.168.1.21:5173/callback');
  });
});
