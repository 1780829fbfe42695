/** The authorization service: every grant, the authorize page and its redirects, and the token endpoint's errors. */

import { encodeBase64Url } from '@storefront-platform/sdk/internal';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { BASE, clock, DEMO, REDIRECT_URI } from '../fixture.js';
import type { Session } from '../session.js';
import type { ContractCase } from './types.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** A JWT bearer assertion for `token`, by the mock clock; `claims` overrides or removes (undefined) claims. */
function assertion(token: string, claims: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(clock.now() / 1000);
  const payload = Object.fromEntries(
    Object.entries({ iss: DEMO.clientId, aud: 'storefront', sub: token, exp: now + 60, ...claims }).filter(
      ([, value]) => value !== undefined,
    ),
  );
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(DEMO.clientSecret));
}

const VERIFIER = 'contract-verifier-0123456789-abcdefghijklmnopqrstuvwxyz';

async function authorizeQuery(responseType: 'code' | 'token', extra: Record<string, string> = {}): Promise<string> {
  const challenge = encodeBase64Url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(VERIFIER))),
  );
  return new URLSearchParams({
    response_type: responseType,
    client_id: DEMO.clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'admin',
    state: 'xyz',
    ...(responseType === 'code' ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
    ...extra,
  }).toString();
}

/** Approves the authorize form as the demo user; returns the redirect. */
async function approve(s: Session, label: string, query: string) {
  const form = Object.fromEntries(new URLSearchParams(query));
  return s.send(label, '/oauth/authorize', {
    form: { ...form, login: DEMO.login, password: DEMO.password, decision: 'approve' },
  });
}

export const oauthCases: ContractCase[] = [
  {
    name: 'client credentials and password grants, scopes by default and by name',
    async run(s) {
      const admin = await s.send('client credentials, admin', '/oauth/token', {
        basic: true,
        form: { grant_type: 'client_credentials', scope: 'admin' },
      });
      expect(admin.json()).toMatchObject({ token_type: 'Bearer', scopes: 'admin' });
      await s.send('client credentials, default scope', '/oauth/token', {
        basic: true,
        form: { grant_type: 'client_credentials' },
      });
      await s.send('client credentials, comma-separated scopes', '/oauth/token', {
        basic: true,
        form: { grant_type: 'client_credentials', scope: 'admin,public' },
      });
      await s.send('client credentials in the body', '/oauth/token', {
        form: { grant_type: 'client_credentials', client_id: DEMO.clientId, client_secret: DEMO.clientSecret },
      });
      const password = await s.send('password grant', '/oauth/token', {
        basic: true,
        form: { grant_type: 'password', username: DEMO.login, password: DEMO.password, scope: 'admin public' },
      });
      expect(password.status).toBe(200);
      await s.send('root with the password token', BASE, { token: password.json().access_token });
    },
  },
  {
    name: 'JWT bearer grant: exchange of an expired token, once only; legacy assertion form; bad assertions',
    async run(s) {
      const old = await s.token('admin');
      clock.advance(3_600_000);
      expect((await s.send('expired token', BASE, { token: old })).status).toBe(401);
      const exchanged = await s.send('exchange', '/oauth/token', {
        form: { grant_type: JWT_BEARER, assertion: await assertion(old) },
      });
      expect(exchanged.status).toBe(200);
      const renewed = exchanged.json().access_token as string;
      await s.send('root with the new token', BASE, { token: renewed });
      const again = await s.send('second exchange of the same token', '/oauth/token', {
        form: { grant_type: JWT_BEARER, assertion: await assertion(old) },
      });
      expect(again.json().error).toBe('invalid_grant');
      await s.send('revoked token', BASE, { token: old });
      await s.send('legacy grant_type=assertion', '/oauth/token', {
        form: { grant_type: 'assertion', assertion_type: JWT_BEARER, assertion: await assertion(renewed) },
      });
      const noExp = await s.send('assertion without exp', '/oauth/token', {
        form: { grant_type: JWT_BEARER, assertion: await assertion(renewed, { exp: undefined }) },
      });
      expect(noExp.status).toBe(400);
      await s.send('assertion past exp', '/oauth/token', {
        form: { grant_type: JWT_BEARER, assertion: await assertion(renewed, { exp: 1 }) },
      });
      await s.send('assertion without aud', '/oauth/token', {
        form: { grant_type: JWT_BEARER, assertion: await assertion(renewed, { aud: undefined }) },
      });
      await s.send('assertion for an unknown token', '/oauth/token', {
        form: { grant_type: JWT_BEARER, assertion: await assertion('no-such-token') },
      });
      await s.send('assertion that is not a JWT', '/oauth/token', { form: { grant_type: JWT_BEARER, assertion: 'x' } });
    },
  },
  {
    name: 'token endpoint errors: client, grant type, parameters, scope, method',
    async run(s) {
      const bad = await s.send('wrong secret', '/oauth/token', {
        basic: { clientId: DEMO.clientId, clientSecret: 'wrong' },
        form: { grant_type: 'client_credentials' },
      });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toBe('Basic realm="storefront"');
      await s.send('no client', '/oauth/token', { form: { grant_type: 'client_credentials' } });
      await s.send('both Basic and body secret', '/oauth/token', {
        basic: true,
        form: { grant_type: 'client_credentials', client_id: DEMO.clientId, client_secret: DEMO.clientSecret },
      });
      await s.send('unsupported grant type', '/oauth/token', { basic: true, form: { grant_type: 'magic' } });
      await s.send('no grant type', '/oauth/token', { basic: true, form: {} });
      await s.send('repeated parameter', '/oauth/token', {
        basic: true,
        body: 'grant_type=client_credentials&grant_type=password',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      await s.send('unknown scope', '/oauth/token', {
        basic: true,
        form: { grant_type: 'client_credentials', scope: 'root' },
      });
      await s.send('wrong password', '/oauth/token', {
        basic: true,
        form: { grant_type: 'password', username: DEMO.login, password: 'nope' },
      });
      await s.send('JSON instead of a form', '/oauth/token', {
        basic: true,
        json: { grant_type: 'client_credentials' },
      });
      const get = await s.send('GET on the token endpoint', '/oauth/token');
      expect(get.status).toBe(405);
      await s.send('preflight of the token endpoint', '/oauth/token', { method: 'OPTIONS' });
    },
  },
  {
    name: 'authorization code grant with PKCE: the page, approval, exchange, code reuse',
    async run(s) {
      const query = await authorizeQuery('code');
      const page = await s.send('authorize page', `/oauth/authorize?${query}`);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      await s.send('authorize page HEAD', `/oauth/authorize?${query}`, { method: 'HEAD' });
      await s.send('wrong password on the form', '/oauth/authorize', {
        form: {
          ...Object.fromEntries(new URLSearchParams(query)),
          login: DEMO.login,
          password: 'x',
          decision: 'approve',
        },
      });
      const approved = await approve(s, 'approve', query);
      expect(approved.status).toBe(303);
      const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
      const exchange = () =>
        s.send('exchange the code', '/oauth/token', {
          basic: true,
          form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER },
        });
      const token = await exchange();
      expect(token.status).toBe(200);
      await s.send('root with the code token', BASE, { token: token.json().access_token });
      expect((await exchange()).status).toBe(400);
      const other = await approve(s, 'approve again', query);
      const second = new URL(other.headers.get('location')!).searchParams.get('code')!;
      await s.send('wrong verifier', '/oauth/token', {
        basic: true,
        form: {
          grant_type: 'authorization_code',
          code: second,
          redirect_uri: REDIRECT_URI,
          code_verifier: 'x'.repeat(43),
        },
      });
    },
  },
  {
    name: 'implicit grant refused to a native app, PKCE required, metadata, denial, and authorize requests that cannot redirect',
    async run(s) {
      // RFC 9700: only a browser client registered for it (the explorer) may use the implicit grant.
      const implicit = await approve(s, 'implicit approve', await authorizeQuery('token'));
      const fragment = new URLSearchParams(new URL(implicit.headers.get('location')!).hash.slice(1));
      expect(fragment.get('error')).toBe('unauthorized_client');
      expect(fragment.has('access_token')).toBe(false);
      const plain = await s.send(
        'code flow without PKCE',
        `/oauth/authorize?${await authorizeQuery('code', { code_challenge: '', code_challenge_method: '' })}`,
      );
      expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
      const metadata = await s.send('authorization server metadata', '/.well-known/oauth-authorization-server');
      expect(metadata.status).toBe(200);
      // An error of the metadata names its request as every JSON error does (the session checks it).
      const posted = await s.send('POST on the metadata', '/.well-known/oauth-authorization-server', {
        method: 'POST',
      });
      expect(posted.status).toBe(405);
      await s.send('deny', '/oauth/authorize', {
        form: { ...Object.fromEntries(new URLSearchParams(await authorizeQuery('code'))), decision: 'deny' },
      });
      await s.send('unknown client', `/oauth/authorize?${await authorizeQuery('code', { client_id: 'nobody' })}`);
      await s.send(
        'unregistered redirect URI',
        `/oauth/authorize?${await authorizeQuery('code', { redirect_uri: 'http://evil.test/cb' })}`,
      );
      await s.send('unknown scope', `/oauth/authorize?${await authorizeQuery('code', { scope: 'root' })}`);
      await s.send(
        'unsupported response type',
        `/oauth/authorize?${await authorizeQuery('code', { response_type: 'id_token' })}`,
      );
      await s.send('PUT on the authorize page', '/oauth/authorize', { method: 'PUT' });
    },
  },
];
