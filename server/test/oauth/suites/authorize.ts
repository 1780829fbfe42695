import { sha256 } from '@noble/hashes/sha2.js';
import { encodeBase64Url } from '@storefront-platform/sdk/internal';
import { describe, expect, it } from 'vitest';
import {
  BROWSER_APP,
  DEMO,
  expectOAuthError,
  type Harness,
  hiddenFields,
  type MakeHarness,
  OTHER_APP,
  REDIRECT_URI,
  tokenOf,
  VISITOR,
} from '../fixture.js';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-and-some-more-entropy';
const CHALLENGE = encodeBase64Url(sha256(new TextEncoder().encode(VERIFIER)));

function authorizeUrl(params: Record<string, string>): string {
  return `/oauth/authorize?${new URLSearchParams(params)}`;
}

const codeRequest = {
  response_type: 'code',
  client_id: DEMO.clientId,
  redirect_uri: REDIRECT_URI,
  scope: 'admin',
  state: 'xyz',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
};

/** Loads the page, fills the form and submits it like a browser (without following the redirect). */
async function consent(
  h: Harness,
  params: Record<string, string>,
  answer: { login?: string; password?: string; decision?: string } = {},
): Promise<Response> {
  const page = await h.fetch(authorizeUrl(params));
  expect(page.status).toBe(200);
  const fields = hiddenFields(await page.text());
  return h.fetch('/oauth/authorize', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ...fields,
      login: answer.login ?? DEMO.login,
      password: answer.password ?? DEMO.password,
      decision: answer.decision ?? 'approve',
    }),
    redirect: 'manual',
  });
}

const pkce = { code_challenge: CHALLENGE, code_challenge_method: 'S256' };

/** The issuer the service names in its answers (RFC 9207 `iss`): its origin. */
function issuer(h: Harness): string {
  return h.context.addresses.authUrl;
}

function location(response: Response): URL {
  const value = response.headers.get('location');
  if (!value) throw new Error(`No Location header (status ${response.status})`);
  return new URL(value);
}

/** The request id an error page shows, which must be its answer's `X-Request-Id`. */
async function expectRequestIdShown(response: Response): Promise<string> {
  const id = response.headers.get('x-request-id');
  expect(id).toBeTruthy();
  const html = await response.text();
  expect(html).toContain(`Request id: <code>${id}</code>`);
  return html;
}

function exchange(h: Harness, code: string, extra: Record<string, string> = {}) {
  return h.token({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: VERIFIER,
    ...extra,
  });
}

export function authorizeSuite(harness: MakeHarness): void {
  describe('authorization endpoint: the page', () => {
    it('shows a login + consent form that posts the request back', async () => {
      const h = await harness();
      const response = await h.fetch(authorizeUrl(codeRequest));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await response.text();
      expect(html).toContain('<form method="post" action="authorize">');
      expect(html).toContain('name="password"');
      expect(html).toContain('value="approve"');
      expect(html).toContain('value="deny"');
      expect(hiddenFields(html)).toEqual({ ...codeRequest, client_id: DEMO.clientId });
    });

    it('escapes everything it renders', async () => {
      const h = await harness();
      const state = '"><script>alert(1)</script>';
      const response = await h.fetch(
        authorizeUrl({
          response_type: 'code',
          client_id: OTHER_APP.clientId,
          redirect_uri: 'https://other.example/cb?keep=1',
          state,
        }),
      );
      const html = await response.text();
      expect(html).not.toContain('<script>');
      expect(html).not.toContain('<b>app</b>');
      expect(html).toContain('Other &lt;b&gt;app&lt;/b&gt;');
      expect(hiddenFields(html).state).toBe(state);
    });

    it('answers HEAD like GET without a body', async () => {
      const h = await harness();
      const response = await h.fetch(authorizeUrl(codeRequest), { method: 'HEAD' });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('');
    });

    it('answers 405 to other methods', async () => {
      const h = await harness();
      const response = await h.fetch(authorizeUrl(codeRequest), { method: 'PUT' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
      await expectRequestIdShown(response);
    });

    it('shows no request id on the consent page itself, which is no error', async () => {
      const h = await harness();
      const response = await h.fetch(authorizeUrl(codeRequest));
      expect(response.status).toBe(200);
      expect(await response.text()).not.toContain('Request id');
    });

    it.each([
      ['no client_id', { client_id: '' }],
      ['an unknown client', { client_id: 'nobody' }],
      ['no redirect_uri', { redirect_uri: '' }],
      ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/callback' }],
      ['a redirect_uri of another app', { redirect_uri: 'https://other.example/cb?keep=1' }],
      ['a redirect_uri that only starts like a registered one', { redirect_uri: `${REDIRECT_URI}/../evil` }],
    ])('shows an error page, never a redirect, for %s', async (_, override) => {
      const h = await harness();
      const params = Object.fromEntries(
        Object.entries({ ...codeRequest, ...override }).filter(([, value]) => value !== ''),
      );
      const response = await h.fetch(authorizeUrl(params), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await expectRequestIdShown(response)).toContain('cannot be completed');
    });

    it.each(['client_id', 'redirect_uri'])('shows an error page when %s is repeated', async (name) => {
      const h = await harness();
      const query = new URLSearchParams(codeRequest);
      query.append(name, name === 'client_id' ? DEMO.clientId : REDIRECT_URI);
      const response = await h.fetch(`/oauth/authorize?${query}`, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    });

    it.each([
      ['no response_type', { response_type: '' }, 'invalid_request'],
      ['an unknown response_type', { response_type: 'id_token' }, 'unsupported_response_type'],
      ['an unknown scope', { scope: 'admin write' }, 'invalid_scope'],
      ['a plain PKCE challenge', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['a challenge without method', { code_challenge_method: '' }, 'invalid_request'],
      ['a method without challenge', { code_challenge: '' }, 'invalid_request'],
      ['a malformed challenge', { code_challenge: 'short' }, 'invalid_request'],
    ])('redirects with an error for %s, once the redirect URI is validated', async (_, override, error) => {
      const h = await harness();
      const params = Object.fromEntries(
        Object.entries({ ...codeRequest, ...override }).filter(([, value]) => value !== ''),
      );
      const response = await h.fetch(authorizeUrl(params), { redirect: 'manual' });
      expect(response.status).toBe(302);
      const to = location(response);
      expect(`${to.origin}${to.pathname}`).toBe(REDIRECT_URI);
      expect(to.searchParams.get('error')).toBe(error);
      expect(to.searchParams.get('error_description')).toBeTruthy();
      expect(to.searchParams.get('state')).toBe('xyz');
    });

    it('redirects with invalid_request for a repeated parameter', async () => {
      const h = await harness();
      const query = new URLSearchParams(codeRequest);
      query.append('scope', 'public');
      const response = await h.fetch(`/oauth/authorize?${query}`, { redirect: 'manual' });
      expect(location(response).searchParams.get('error')).toBe('invalid_request');
    });

    it('sends implicit-grant errors in the fragment', async () => {
      const h = await harness();
      const response = await h.fetch(
        authorizeUrl({
          response_type: 'token',
          client_id: BROWSER_APP.clientId,
          redirect_uri: BROWSER_APP.redirectUri,
          scope: 'x',
          state: 's',
        }),
        { redirect: 'manual' },
      );
      const to = location(response);
      expect(to.search).toBe('');
      const fragment = new URLSearchParams(to.hash.slice(1));
      expect(fragment.get('error')).toBe('invalid_scope');
      expect(fragment.get('state')).toBe('s');
      expect(fragment.get('iss')).toBe(issuer(h));
    });

    it('refuses the implicit grant to an app not registered for it (RFC 9700 §2.1.2), in the fragment', async () => {
      const h = await harness();
      const query = { response_type: 'token', client_id: DEMO.clientId, redirect_uri: REDIRECT_URI, state: 's' };
      const response = await h.fetch(authorizeUrl(query), { redirect: 'manual' });
      const fragment = new URLSearchParams(location(response).hash.slice(1));
      expect(fragment.get('error')).toBe('unauthorized_client');
      expect(fragment.get('error_description')).toContain('response_type=code with PKCE');
      expect(fragment.has('access_token')).toBe(false);
    });

    it('gives the implicit grant of a native app no other loopback port: the error page, no redirect', async () => {
      const h = await harness();
      for (const redirectUri of ['http://localhost:6666/callback', 'http://127.0.0.1:6666/callback']) {
        const query = { response_type: 'token', client_id: DEMO.clientId, redirect_uri: redirectUri };
        const response = await h.fetch(authorizeUrl(query), { redirect: 'manual' });
        expect(response.status).toBe(400);
        expect(response.headers.get('location')).toBeNull();
        expect(await response.text()).toContain('is not registered');
      }
    });

    it('refuses a code flow without PKCE from a public client (RFC 9700 §2.1.1), through the redirect', async () => {
      const h = await harness();
      const { code_challenge: _c, code_challenge_method: _m, ...plain } = codeRequest;
      for (const query of [
        plain,
        { ...plain, client_id: BROWSER_APP.clientId, redirect_uri: BROWSER_APP.redirectUri },
      ]) {
        const response = await h.fetch(authorizeUrl(query), { redirect: 'manual' });
        expect(response.status).toBe(302);
        const to = location(response);
        expect(to.searchParams.get('error')).toBe('invalid_request');
        expect(to.searchParams.get('error_description')).toContain('PKCE is required');
        expect(to.searchParams.get('state')).toBe('xyz');
      }
    });

    it('names the redirect URI it refuses on the error page, and for the demo app how to register it', async () => {
      const h = await harness();
      const uri = 'http://192.168.1.20:5173/callback';
      const demo = await h.fetch(authorizeUrl({ ...codeRequest, redirect_uri: uri }));
      const page = await demo.text();
      expect(demo.status).toBe(400);
      expect(page).toContain(`The redirect_uri &quot;${uri}&quot; is not registered`);
      expect(page).toContain(`--redirect-uri ${uri}`);
      expect(page).toContain('STOREFRONT_REDIRECT_URIS');
      const other = await h.fetch(
        authorizeUrl({ response_type: 'code', client_id: OTHER_APP.clientId, redirect_uri: uri }),
      );
      expect(await other.text()).not.toContain('--redirect-uri');
    });
  });

  describe('authorization server metadata (RFC 8414)', () => {
    it('names the issuer, the endpoints and what they accept', async () => {
      const h = await harness();
      const response = await h.fetch('/.well-known/oauth-authorization-server');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const auth = h.context.addresses.authUrl;
      expect(await response.json()).toEqual({
        issuer: issuer(h),
        authorization_endpoint: `${auth}/oauth/authorize`,
        token_endpoint: `${auth}/oauth/token`,
        grant_types_supported: [
          'authorization_code',
          'implicit',
          'password',
          'client_credentials',
          'urn:ietf:params:oauth:grant-type:jwt-bearer',
        ],
        response_types_supported: ['code', 'token'],
        response_modes_supported: ['query', 'fragment'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        scopes_supported: ['admin', 'public'],
        authorization_response_iss_parameter_supported: true,
      });
      expect((await h.fetch('/.well-known/oauth-authorization-server', { method: 'POST' })).status).toBe(405);
    });
  });

  describe('authorization endpoint: the form', () => {
    it('redirects with a code and the state after approval (303)', async () => {
      const h = await harness();
      const response = await consent(h, codeRequest);
      expect(response.status).toBe(303);
      const to = location(response);
      expect(`${to.origin}${to.pathname}`).toBe(REDIRECT_URI);
      expect(to.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(to.searchParams.get('state')).toBe('xyz');
      expect(to.searchParams.get('iss')).toBe(issuer(h));
      expect(JSON.stringify(h.context.store.all('codes'))).not.toContain(to.searchParams.get('code'));
    });

    it('keeps the query of a registered redirect URI', async () => {
      const h = await harness();
      const response = await consent(
        h,
        { response_type: 'code', client_id: OTHER_APP.clientId, redirect_uri: 'https://other.example/cb?keep=1' },
        { login: VISITOR.login, password: VISITOR.password },
      );
      const to = location(response);
      expect(to.searchParams.get('keep')).toBe('1');
      expect(to.searchParams.get('code')).toBeTruthy();
      expect(to.searchParams.has('state')).toBe(false);
    });

    it('shows the form again with a message after a wrong password, without a code', async () => {
      const h = await harness();
      const response = await consent(h, codeRequest, { password: 'wrong' });
      expect(response.status).toBe(200);
      expect(response.headers.get('location')).toBeNull();
      const html = await expectRequestIdShown(response);
      expect(html).toContain('The login or password is incorrect.');
      expect(html).toContain(`value="${DEMO.login}"`);
      expect(hiddenFields(html).state).toBe('xyz');
      expect(h.context.store.all('codes')).toHaveLength(0);
    });

    it('redirects with access_denied when the user denies', async () => {
      const h = await harness();
      const response = await consent(h, codeRequest, { decision: 'deny', password: '' });
      const to = location(response);
      expect(to.searchParams.get('error')).toBe('access_denied');
      expect(to.searchParams.get('state')).toBe('xyz');
      expect(to.searchParams.has('code')).toBe(false);
    });

    it('redirects with invalid_request when the form has no decision', async () => {
      const h = await harness();
      const response = await consent(h, codeRequest, { decision: '' });
      expect(location(response).searchParams.get('error')).toBe('invalid_request');
    });

    it('redirects with invalid_scope when the user may not hold the scope', async () => {
      const h = await harness();
      const response = await consent(h, codeRequest, { login: VISITOR.login, password: VISITOR.password });
      expect(location(response).searchParams.get('error')).toBe('invalid_scope');
    });

    it('validates the posted request again: a tampered redirect_uri gets the error page', async () => {
      const h = await harness();
      const response = await h.fetch('/oauth/authorize', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          ...codeRequest,
          redirect_uri: 'https://evil.example/',
          login: DEMO.login,
          password: DEMO.password,
          decision: 'approve',
        }),
        redirect: 'manual',
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    });

    it('shows the error page for a posted body that is not a form', async () => {
      const h = await harness();
      const response = await h.fetch('/oauth/authorize', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(codeRequest),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('x-www-form-urlencoded');
    });

    it('returns a token in the fragment for response_type=token (implicit grant)', async () => {
      const h = await harness({ tokenTtl: 900 });
      const response = await consent(h, {
        response_type: 'token',
        client_id: BROWSER_APP.clientId,
        redirect_uri: BROWSER_APP.redirectUri,
        scope: 'public admin',
        state: 'st',
      });
      expect(response.status).toBe(303);
      const to = location(response);
      expect(to.search).toBe('');
      const fragment = Object.fromEntries(new URLSearchParams(to.hash.slice(1)));
      expect(fragment).toEqual({
        access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        token_type: 'Bearer',
        expires_in: '900',
        scope: 'admin public',
        state: 'st',
        iss: issuer(h),
      });
      const result = h.check(fragment.access_token!);
      expect(result).toMatchObject({ ok: true, principal: { userId: '1', scopes: ['admin', 'public'] } });
    });
  });

  describe('authorization code grant', () => {
    async function code(h: Harness, params: Record<string, string> = codeRequest): Promise<string> {
      return location(await consent(h, params)).searchParams.get('code')!;
    }

    it('exchanges a code and its PKCE verifier for a token of the approving user', async () => {
      const h = await harness();
      const response = await exchange(h, await code(h));
      expect(await response.clone().json()).toMatchObject({ token_type: 'Bearer', scopes: 'admin', scope: 'admin' });
      const result = h.check(await tokenOf(response));
      expect(result).toMatchObject({ ok: true, principal: { userId: '1', appId: '1', scopes: ['admin'] } });
    });

    it('uses a code once, and revokes its token when the code is replayed', async () => {
      const h = await harness();
      const issued = await code(h);
      const token = await tokenOf(await exchange(h, issued));
      expect(h.check(token).ok).toBe(true);
      expect(await expectOAuthError(await exchange(h, issued), 400, 'invalid_grant')).toContain('already used');
      expect(h.check(token)).toMatchObject({ ok: false, reason: 'revoked' });
    });

    it('lets only one of two concurrent redemptions succeed', async () => {
      const h = await harness();
      const issued = await code(h);
      const statuses = (await Promise.all([exchange(h, issued), exchange(h, issued)])).map((r) => r.status);
      expect(statuses.sort()).toEqual([200, 400]);
    });

    it('expires a code after a minute', async () => {
      const h = await harness();
      const issued = await code(h);
      h.clock.advance(60_000);
      expect(await expectOAuthError(await exchange(h, issued), 400, 'invalid_grant')).toContain('expired');
    });

    it('requires the redirect_uri of the authorization request', async () => {
      const h = await harness();
      const issued = await code(h);
      const other = await exchange(h, issued, { redirect_uri: 'http://127.0.0.1:8080/callback' });
      expect(await expectOAuthError(other, 400, 'invalid_grant')).toContain('redirect_uri');
      const missing = await h.token({ grant_type: 'authorization_code', code: issued, code_verifier: VERIFIER });
      expect(await expectOAuthError(missing, 400, 'invalid_request')).toContain('redirect_uri');
      expect((await exchange(h, issued)).status).toBe(200);
    });

    it('checks the PKCE verifier', async () => {
      const h = await harness();
      const issued = await code(h);
      const wrong = await exchange(h, issued, { code_verifier: `${VERIFIER.slice(0, -1)}x` });
      expect(await expectOAuthError(wrong, 400, 'invalid_grant')).toContain('does not match');
      const missing = await h.token({ grant_type: 'authorization_code', code: issued, redirect_uri: REDIRECT_URI });
      expect(await expectOAuthError(missing, 400, 'invalid_grant')).toContain('code_verifier is required');
      const malformed = await exchange(h, issued, { code_verifier: 'too-short' });
      await expectOAuthError(malformed, 400, 'invalid_request');
      expect((await exchange(h, issued)).status).toBe(200);
    });

    it('works without PKCE for a confidential client (a web app), and then refuses a verifier', async () => {
      const h = await harness();
      const redirectUri = 'https://other.example/cb?keep=1';
      const response = await consent(
        h,
        { response_type: 'code', client_id: OTHER_APP.clientId, redirect_uri: redirectUri },
        { login: VISITOR.login, password: VISITOR.password },
      );
      const issued = location(response).searchParams.get('code')!;
      const params = { grant_type: 'authorization_code', code: issued, redirect_uri: redirectUri };
      await expectOAuthError(await h.token({ ...params, code_verifier: VERIFIER }, OTHER_APP), 400, 'invalid_grant');
      expect((await h.token(params, OTHER_APP)).status).toBe(200);
    });

    it('refuses a code issued to another client, and an unknown code', async () => {
      const h = await harness();
      const issued = await code(h);
      const other = await h.token(
        { grant_type: 'authorization_code', code: issued, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER },
        OTHER_APP,
      );
      await expectOAuthError(other, 400, 'invalid_grant');
      await expectOAuthError(await exchange(h, 'not-a-code'), 400, 'invalid_grant');
      expect((await exchange(h, issued)).status).toBe(200);
    });

    it('lets a public client exchange its code with client_id and the verifier alone', async () => {
      const h = await harness();
      const issued = await code(h);
      const params = {
        grant_type: 'authorization_code',
        code: issued,
        redirect_uri: REDIRECT_URI,
        client_id: DEMO.clientId,
      };
      const unproven = await h.token(params, false);
      expect(await expectOAuthError(unproven, 400, 'invalid_grant')).toContain('code_verifier is required');
      const wrongSecret = await h.token(params, { clientId: DEMO.clientId, clientSecret: 'wrong' });
      await expectOAuthError(wrongSecret, 401, 'invalid_client');
      const token = await tokenOf(await h.token({ ...params, code_verifier: VERIFIER }, false));
      expect(h.check(token)).toMatchObject({ ok: true, principal: { userId: '1', scopes: ['admin'] } });
    });

    it('requires client authentication from a confidential client, and the code', async () => {
      const h = await harness();
      const redirectUri = 'https://other.example/cb?keep=1';
      const response = await consent(
        h,
        { response_type: 'code', client_id: OTHER_APP.clientId, redirect_uri: redirectUri, ...pkce },
        { login: VISITOR.login, password: VISITOR.password },
      );
      const issued = location(response).searchParams.get('code')!;
      await expectOAuthError(
        await h.token(
          {
            grant_type: 'authorization_code',
            code: issued,
            redirect_uri: redirectUri,
            client_id: OTHER_APP.clientId,
            code_verifier: VERIFIER,
          },
          false,
        ),
        401,
        'invalid_client',
      );
      const noCode = await h.token({ grant_type: 'authorization_code', redirect_uri: REDIRECT_URI });
      expect(await expectOAuthError(noCode, 400, 'invalid_request')).toContain('"code"');
    });
  });
}
