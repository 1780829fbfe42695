/**
 * The authorization service inside the whole reference server, over real HTTP: the resource API's bearer
 * checks, expiry by the injected clock, persistence across a restart (JSON files) and a standard OAuth client
 * we did not write (oauth4webapi) obtaining tokens by client credentials and by authorization code + PKCE.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/support/manual-clock.js';
import { hashSecret } from '../../src/oauth/secrets.js';
import { tokenRequest } from '../helpers/test-server.js';
import { assertion, hiddenFields, START, tokenOf } from './fixture.js';

const REDIRECT_URI = 'http://127.0.0.1:8080/callback';
const DEMO = {
  clientId: 'integration-app',
  clientSecret: 'integration secret: with spaces & symbols/+=',
  login: 'dana',
  password: 'correct horse battery staple',
  redirectUris: [REDIRECT_URI],
};
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

function api(server: StorefrontServer, path: string, token?: string): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
}

function exchangeAssertion(token: string, now: number): Promise<string> {
  return assertion(token, { iss: DEMO.clientId }, { now, secret: DEMO.clientSecret });
}

describe('bearer tokens at the resource API', () => {
  const clock = manualClock(START);
  let server: StorefrontServer;
  beforeAll(async () => {
    server = await createServer({ port: 0, products: 5, demo: DEMO, clock, tokenTtl: 600 });
  });
  afterAll(() => server.close());

  it('answers 401 with a bare Bearer challenge when no token is sent', async () => {
    const response = await api(server, '/products.json');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="storefront"');
  });

  it('answers 401 invalid_token for an unknown token', async () => {
    const response = await api(server, '/products.json', 'unknown-token');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="storefront", error="invalid_token"');
  });

  it('answers 403 insufficient_scope for a public token on an admin resource', async () => {
    const token = await tokenOf(await tokenRequest(server.origin, { grant_type: 'client_credentials' }, DEMO));
    expect((await api(server, '/products.json', token)).status).toBe(200);
    const response = await api(server, '/orders.json', token);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="storefront", error="insufficient_scope", scope="admin"',
    );
    const admin = await tokenOf(
      await tokenRequest(server.origin, { grant_type: 'client_credentials', scope: 'admin' }, DEMO),
    );
    expect((await api(server, '/orders.json', admin)).status).toBe(200);
  });

  it('takes access_token from the query of JSONP requests only', async () => {
    const token = await tokenOf(await tokenRequest(server.origin, { grant_type: 'client_credentials' }, DEMO));
    const jsonp = await fetch(`${server.baseUrl}/products.jsonp?callback=cb&access_token=${token}`);
    expect(jsonp.status).toBe(200);
    const plain = await fetch(`${server.baseUrl}/products.json?access_token=${token}`);
    expect(plain.status).toBe(401);
    expect(plain.headers.get('www-authenticate')).toBe('Bearer realm="storefront"');
    // A script tag cannot send headers: the 401 of a JSONP request names the parameter it can send.
    const anonymous = await fetch(`${server.baseUrl}/products.jsonp?callback=cb`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toMatch(/^\/\*\*\/ ?cb\(.*access_token=.*\)/s);
  });

  it('expires tokens by the injected clock, and the JWT bearer grant renews them once', async () => {
    const token = await tokenOf(
      await tokenRequest(
        server.origin,
        { grant_type: 'password', username: DEMO.login, password: DEMO.password },
        DEMO,
      ),
    );
    expect((await api(server, '/products.json', token)).status).toBe(200);
    clock.advance(600_000);
    const expired = await api(server, '/products.json', token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe('Bearer realm="storefront", error="invalid_token"');

    const jwt = await exchangeAssertion(token, clock.now());
    const renewed = await tokenOf(await tokenRequest(server.origin, { grant_type: JWT_BEARER, assertion: jwt }));
    expect((await api(server, '/products.json', renewed)).status).toBe(200);
    const again = await tokenRequest(server.origin, { grant_type: JWT_BEARER, assertion: jwt });
    expect(again.status).toBe(400);
    expect((await again.json()).error).toBe('invalid_grant');
  });
});

describe('persistence across a restart (JSON files)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'storefront-oauth-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('keeps issued tokens, expiry and revocations, and stores only their hashes', async () => {
    const data = join(dir, 'db.json');
    const clock = manualClock(START);
    let server = await createServer({ port: 0, data, products: 5, demo: DEMO, clock });
    const kept = await tokenOf(
      await tokenRequest(server.origin, { grant_type: 'client_credentials', scope: 'admin' }, DEMO),
    );
    const exchanged = await tokenOf(await tokenRequest(server.origin, { grant_type: 'client_credentials' }, DEMO));
    const renewed = await tokenOf(
      await tokenRequest(server.origin, {
        grant_type: JWT_BEARER,
        assertion: await exchangeAssertion(exchanged, clock.now()),
      }),
    );
    await server.close();

    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
    const contents = (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
    for (const token of [kept, exchanged, renewed]) {
      expect(contents).not.toContain(token);
      expect(contents).toContain(hashSecret(token));
    }

    server = await createServer({ port: 0, data, clock });
    try {
      expect(server.seeded).toBe(false);
      expect((await api(server, '/orders.json', kept)).status).toBe(200);
      expect((await api(server, '/products.json', renewed)).status).toBe(200);
      expect((await api(server, '/products.json', exchanged)).status).toBe(401);
      const replay = await tokenRequest(server.origin, {
        grant_type: JWT_BEARER,
        assertion: await exchangeAssertion(exchanged, clock.now()),
      });
      expect((await replay.json()).error).toBe('invalid_grant');
      clock.advance(3_600_000);
      expect((await api(server, '/orders.json', kept)).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('a standard OAuth client (oauth4webapi)', () => {
  let server: StorefrontServer;
  let as: oauth.AuthorizationServer;
  const client: oauth.Client = { client_id: DEMO.clientId };
  const clientAuth = oauth.ClientSecretBasic(DEMO.clientSecret);
  // The test server speaks plain HTTP on localhost.
  const insecure = { [oauth.allowInsecureRequests]: true };

  beforeAll(async () => {
    server = await createServer({ port: 0, products: 5, demo: DEMO, clock: { now: () => START } });
    as = {
      issuer: server.origin,
      token_endpoint: `${server.origin}/oauth/token`,
      authorization_endpoint: `${server.origin}/oauth/authorize`,
    };
  });
  afterAll(() => server.close());

  it('obtains a token by client credentials', async () => {
    const response = await oauth.clientCredentialsGrantRequest(as, client, clientAuth, { scope: 'admin' }, insecure);
    const result = await oauth.processClientCredentialsResponse(as, client, response);
    expect(result).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'admin' });
    expect((await api(server, '/orders.json', result.access_token)).status).toBe(200);
  });

  it('obtains a token by authorization code with PKCE, through the consent form', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'admin public',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    // The user: opens the page, logs in and approves.
    const page = await fetch(authorizationUrl);
    expect(page.status).toBe(200);
    const submitted = await fetch(new URL('authorize', authorizationUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...hiddenFields(await page.text()),
        login: DEMO.login,
        password: DEMO.password,
        decision: 'approve',
      }),
      redirect: 'manual',
    });
    expect(submitted.status).toBe(303);
    const callback = new URL(submitted.headers.get('location')!);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);

    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      REDIRECT_URI,
      verifier,
      insecure,
    );
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(result).toMatchObject({ token_type: 'bearer', scope: 'admin public' });
    expect((await api(server, '/orders.json', result.access_token)).status).toBe(200);
  });

  it('sees a failed client authentication as a Basic challenge with an RFC 6749 error body', async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic('wrong'),
      { scope: 'admin' },
      insecure,
    );
    const failure = await oauth.processClientCredentialsResponse(as, client, response).catch((error: unknown) => error);
    // oauth4webapi reports the WWW-Authenticate challenge of a 401 first; the body still carries the error.
    expect(failure).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challenge = failure as oauth.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause).toEqual([{ scheme: 'basic', parameters: { realm: 'storefront' } }]);
    expect(await challenge.response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('sees other token endpoint errors as response body errors', async () => {
    const response = await oauth.clientCredentialsGrantRequest(as, client, clientAuth, { scope: 'root' }, insecure);
    const failure = await oauth.processClientCredentialsResponse(as, client, response).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oauth.ResponseBodyError);
    expect(failure).toMatchObject({ error: 'invalid_scope', status: 400 });
  });
});
