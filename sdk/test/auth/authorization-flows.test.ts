import { describe, expect, it } from 'vitest';
import { exchangeCode } from '../../src/auth/authorization-code.js';
import { authorizeUrl } from '../../src/auth/authorize-url.js';
import { readImplicitFragment } from '../../src/auth/implicit.js';
import { pkceChallenge, pkceVerifier } from '../../src/auth/pkce.js';
import { OAuthError } from '../../src/errors/index.js';
import { fakeTokenEndpoint, tokenBody } from './fake-token-endpoint.js';

const authUrl = 'http://auth.test';
const redirectUri = 'http://app.test/callback';

describe('PKCE', () => {
  it('computes the S256 challenge of RFC 7636 Appendix B', async () => {
    expect(await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes random 43-character verifiers and refuses malformed ones', async () => {
    const a = pkceVerifier();
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(pkceVerifier()).not.toBe(a);
    await expect(pkceChallenge('short')).rejects.toThrow(TypeError);
  });
});

describe('authorizeUrl', () => {
  it('builds the code flow URL with state and an S256 challenge of the verifier it returns', async () => {
    const request = await authorizeUrl({ authUrl: `${authUrl}/`, clientId: 'app', redirectUri, scope: 'admin' });
    const url = new URL(request.url);
    expect(url.origin + url.pathname).toBe('http://auth.test/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'app',
      redirect_uri: redirectUri,
      scope: 'admin',
      state: request.state,
      code_challenge: await pkceChallenge(request.codeVerifier ?? ''),
      code_challenge_method: 'S256',
    });
    expect(request.state).toMatch(/^[\w-]{22}$/);
    expect((await authorizeUrl({ authUrl, clientId: 'app', redirectUri })).state).not.toBe(request.state);
  });

  it('builds the implicit flow URL without PKCE', async () => {
    const request = await authorizeUrl({ authUrl, clientId: 'app', redirectUri, responseType: 'token' });
    const params = new URL(request.url).searchParams;
    expect(params.get('response_type')).toBe('token');
    expect(params.has('code_challenge')).toBe(false);
    expect(request.codeVerifier).toBeUndefined();
  });
});

describe('exchangeCode', () => {
  const base = { authUrl, clientId: 'app', redirectUri, state: 'S', codeVerifier: 'V'.repeat(43) };

  it('checks the state and exchanges the code with the verifier, Basic auth for a confidential client', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ body: tokenBody('T1', 60) }));
    const token = await exchangeCode({
      ...base,
      clientSecret: 'secret',
      callbackUrl: `${redirectUri}?code=C0DE&state=S`,
      fetch: endpoint.fetch,
      now: () => 0,
    });
    expect(token).toMatchObject({ accessToken: 'T1', expiresAt: 60_000 });
    const [call] = endpoint.calls;
    expect(call?.headers.get('authorization')).toBe(`Basic ${btoa('app:secret')}`);
    expect(Object.fromEntries(call?.params ?? [])).toEqual({
      grant_type: 'authorization_code',
      code: 'C0DE',
      redirect_uri: redirectUri,
      code_verifier: base.codeVerifier,
    });
  });

  it('sends client_id in the body for a public client', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ body: tokenBody('T1') }));
    await exchangeCode({ ...base, callbackUrl: `${redirectUri}?code=C&state=S`, fetch: endpoint.fetch });
    expect(endpoint.calls[0]?.headers.get('authorization')).toBeNull();
    expect(endpoint.calls[0]?.params.get('client_id')).toBe('app');
  });

  it('refuses a forged state or an error callback without calling the token endpoint', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ body: tokenBody('T1') }));
    const forged = await exchangeCode({
      ...base,
      callbackUrl: `${redirectUri}?code=C&state=X`,
      fetch: endpoint.fetch,
    }).catch((e: unknown) => e);
    expect(forged).toBeInstanceOf(OAuthError);
    expect((forged as OAuthError).error).toBe('invalid_state');
    expect((forged as OAuthError).message).not.toContain('code=C&');
    const denied = exchangeCode({
      ...base,
      callbackUrl: `${redirectUri}?error=access_denied&error_description=no&state=S`,
      fetch: endpoint.fetch,
    });
    await expect(denied).rejects.toMatchObject({ error: 'access_denied', errorDescription: 'no' });
    // No request failed, and the state is not the error's to show.
    const reason = (await denied.catch((e: unknown) => e)) as OAuthError;
    expect(reason.message).toBe('Sign-in failed: no');
    expect(reason.url).toBe(redirectUri);
    expect(endpoint.calls).toHaveLength(0);
  });
});

describe('readImplicitFragment', () => {
  it('reads the token of the fragment', () => {
    const token = readImplicitFragment({
      callbackUrl: `${redirectUri}#access_token=AT&token_type=Bearer&expires_in=3600&scope=admin%20public&state=S`,
      state: 'S',
      now: () => 1_000,
    });
    expect(token).toEqual({
      accessToken: 'AT',
      tokenType: 'Bearer',
      expiresAt: 3_601_000,
      scopes: ['admin', 'public'],
    });
  });

  it('refuses a state mismatch, an error, or a fragment without a token, keeping the token out of messages', () => {
    const forged = () =>
      readImplicitFragment({ callbackUrl: `${redirectUri}#access_token=AT&token_type=Bearer&state=X`, state: 'S' });
    expect(forged).toThrow(OAuthError);
    expect(forged).toThrow(/^(?!.*AT&).*$/s);
    expect(() =>
      readImplicitFragment({ callbackUrl: `${redirectUri}#error=access_denied&state=S`, state: 'S' }),
    ).toThrow(/access_denied/);
    expect(() => readImplicitFragment({ callbackUrl: `${redirectUri}#token_type=Bearer&state=S`, state: 'S' })).toThrow(
      /no bearer access token/,
    );
    expect(() =>
      readImplicitFragment({
        callbackUrl: `${redirectUri}#access_token=AT&token_type=Bearer&expires_in=x&state=S`,
        state: 'S',
      }),
    ).toThrow(OAuthError);
  });
});
