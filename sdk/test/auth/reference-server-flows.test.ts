import {
  type AuthorizeRequest,
  type AuthorizeUrlOptions,
  authorized,
  authorizeUrl,
  createClient,
  type ExchangeCodeOptions,
  exchangeCode,
  readImplicitFragment,
  type TokenInfo,
} from '@storefront-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingFetch } from '../../../test/support/recording-fetch.js';
import { type ReferenceServer, startReferenceServer } from '../helpers/reference-server.js';

const TTL = 60;
let h: ReferenceServer;
beforeAll(async () => {
  h = await startReferenceServer({ tokenTtl: TTL });
});
afterAll(() => h.server.close());

const redirectUri = () => h.credentials.redirectUris[0]!;

/** What a browser does on the consent page: post the form back with the user's login, and follow nowhere. */
async function consent(url: string, decision: 'approve' | 'deny'): Promise<string> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  const form = new URLSearchParams(new URL(url).searchParams);
  form.set('login', h.credentials.login);
  form.set('password', h.credentials.password);
  form.set('decision', decision);
  const answer = await fetch(`${h.server.origin}/oauth/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  expect(answer.status).toBeGreaterThanOrEqual(300);
  expect(answer.status).toBeLessThan(400);
  return answer.headers.get('location')!;
}

async function rootWith(token: TokenInfo) {
  const { clientId, clientSecret } = h.credentials;
  const auth = authorized({ authUrl: h.server.origin, clientId, clientSecret, accessToken: token.accessToken });
  return createClient({ baseUrl: h.server.baseUrl, auth }).root();
}

/** The demo app's authorize URL to its first redirect URI; `options` add to or replace any part. */
function authorize(options: Partial<AuthorizeUrlOptions> = {}) {
  return authorizeUrl({
    authUrl: h.server.origin,
    clientId: h.credentials.clientId,
    redirectUri: redirectUri(),
    ...options,
  });
}

/** The demo app's code exchange for the consent that came back to `callbackUrl`; `options` replace any part. */
function exchange(request: AuthorizeRequest, callbackUrl: string, options: Partial<ExchangeCodeOptions> = {}) {
  const { clientId, clientSecret } = h.credentials;
  return exchangeCode({
    authUrl: h.server.origin,
    clientId,
    clientSecret,
    redirectUri: redirectUri(),
    callbackUrl,
    state: request.state,
    codeVerifier: request.codeVerifier!,
    ...options,
  });
}

describe('authorization flows against the reference server', () => {
  it('authorization code with PKCE: authorize URL, consent, code exchange with the verifier', async () => {
    const request = await authorize({ scope: 'admin' });
    const callbackUrl = await consent(request.url, 'approve');
    expect(callbackUrl.startsWith(redirectUri())).toBe(true);

    const recorder = recordingFetch();
    const token = await exchange(request, callbackUrl, { fetch: recorder.fetch });
    expect(token.scopes).toEqual(['admin']);
    expect(new URLSearchParams(recorder.tokenRequests()[0]?.body).get('code_verifier')).toBe(request.codeVerifier);
    expect((await rootWith(token)).properties.user_name).toBe('Dana Demo');
  });

  it('a code exchanged with the wrong verifier is refused with a typed invalid_grant', async () => {
    const request = await authorize();
    const callbackUrl = await consent(request.url, 'approve');
    const exchanged = exchange(request, callbackUrl, { codeVerifier: 'x'.repeat(43) });
    await expect(exchanged).rejects.toMatchObject({ name: 'OAuthError', error: 'invalid_grant' });
  });

  it('a native app (a public client) may exchange its code without the secret: the PKCE verifier proves it', async () => {
    const request = await authorize();
    const callbackUrl = await consent(request.url, 'approve');
    const token = await exchange(request, callbackUrl, { clientSecret: undefined });
    expect((await rootWith(token)).properties.scopes).toBe('public');
  });

  it('implicit grant: refused to the demo app, a native app (RFC 9700), as a typed unauthorized_client', async () => {
    const request = await authorize({ scope: 'public', responseType: 'token' });
    const refused = await fetch(request.url, { redirect: 'manual' });
    const callbackUrl = refused.headers.get('location')!;
    expect(() => readImplicitFragment({ callbackUrl, state: request.state })).toThrow(
      expect.objectContaining({ name: 'OAuthError', error: 'unauthorized_client' }),
    );
  });

  it('a denied consent comes back as a typed access_denied', async () => {
    const request = await authorize();
    const callbackUrl = await consent(request.url, 'deny');
    const exchanged = exchange(request, callbackUrl);
    await expect(exchanged).rejects.toMatchObject({ name: 'OAuthError', error: 'access_denied' });
  });
});
