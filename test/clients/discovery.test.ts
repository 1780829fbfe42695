/**
 * RFC 8414 discovery and an authorization code flow with PKCE through two peer clients, oauth4webapi and
 * openid-client, told nothing but the issuer: the metadata names every endpoint, and the authorization
 * response's `iss` (RFC 9207), which both check when the metadata says it is sent, matches.
 */

import { exchangeCode } from '@storefront-platform/sdk';
import * as oauth from 'oauth4webapi';
import * as openid from 'openid-client';
import { describe, expect, it } from 'vitest';
import { approveAt as approve } from '../../server/test/oauth/fixture.js';
import { useClientsServer } from './server.js';

const running = useClientsServer();

/** The demo app is a native app: any port of its loopback redirect URI, in the code flow. */
const REDIRECT_URI = 'http://127.0.0.1:51234/callback';

async function rootWith(token: string): Promise<{ status: number; scopes?: string }> {
  const response = await fetch(running().server.baseUrl, { headers: { authorization: `Bearer ${token}` } });
  return response.ok ? { status: 200, scopes: ((await response.json()) as { scopes: string }).scopes } : response;
}

describe('oauth4webapi', () => {
  it('discovers the server and signs in with the code flow, PKCE and no secret', async () => {
    const { server, credentials } = running();
    const issuer = new URL(server.origin);
    const insecure = { [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    expect(as).toMatchObject({
      issuer: server.origin,
      authorization_endpoint: `${server.origin}/oauth/authorize`,
      token_endpoint: `${server.origin}/oauth/token`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(as.grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const client: oauth.Client = { client_id: credentials.clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'admin',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const callback = new URL(await approve(url, credentials.login, credentials.password));
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      REDIRECT_URI,
      verifier,
      insecure,
    );
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(result).toMatchObject({ token_type: 'bearer', scope: 'admin' });
    expect(await rootWith(result.access_token)).toEqual({ status: 200, scopes: 'admin' });
  });

  it('reads a denied sign-in as the SDK does: access_denied with its description (RFC 6749 §4.1.2.1)', async () => {
    const { server, credentials } = running();
    const issuer = new URL(server.origin);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }),
    );
    const client: oauth.Client = { client_id: credentials.clientId };
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'admin',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
    }).toString();
    const callback = await approve(url, credentials.login, credentials.password, 'deny');
    let peer: unknown;
    try {
      oauth.validateAuthResponse(as, client, new URL(callback), state);
    } catch (error) {
      peer = error;
    }
    expect(peer).toBeInstanceOf(oauth.AuthorizationResponseError);
    const { error, error_description } = peer as oauth.AuthorizationResponseError;
    expect(error).toBe('access_denied');
    const ours = exchangeCode({
      authUrl: server.origin,
      clientId: client.client_id,
      callbackUrl: callback,
      state,
      codeVerifier: 'unused',
      redirectUri: REDIRECT_URI,
    });
    await expect(ours).rejects.toMatchObject({ error, errorDescription: error_description });
    await expect(ours).rejects.toThrow(`Sign-in failed: ${error_description ?? error}`);
  });

  it('refuses an authorization response whose iss is another issuer', async () => {
    const { server, credentials } = running();
    const issuer = new URL(server.origin);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }),
    );
    const forged = new URL(`${REDIRECT_URI}?code=x&state=s&iss=${encodeURIComponent('http://other.example')}`);
    expect(() => oauth.validateAuthResponse(as, { client_id: credentials.clientId }, forged, 's')).toThrow(/iss/);
  });
});

describe('openid-client', () => {
  it('discovers the server and signs in with the code flow, PKCE and no secret', async () => {
    const { server, credentials } = running();
    const config = await openid.discovery(new URL(server.origin), credentials.clientId, undefined, openid.None(), {
      algorithm: 'oauth2',
      execute: [openid.allowInsecureRequests],
    });
    expect(config.serverMetadata().token_endpoint).toBe(`${server.origin}/oauth/token`);
    const verifier = openid.randomPKCECodeVerifier();
    const state = openid.randomState();
    const url = openid.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'admin',
      state,
      code_challenge: await openid.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = new URL(await approve(url, credentials.login, credentials.password));
    expect(callback.searchParams.get('iss')).toBe(server.origin);
    const tokens = await openid.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.scope).toBe('admin');
    expect(await rootWith(tokens.access_token)).toEqual({ status: 200, scopes: 'admin' });
  });
});
