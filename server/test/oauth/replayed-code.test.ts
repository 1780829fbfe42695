/**
 * A code presented twice revokes the token it gave (RFC 6749 §4.1.2). Refreshing that token through the JWT bearer
 * grant is then refused as revoked, not as "already exchanged", so that the SDK reports a refused authorization
 * (sign in again) rather than `AuthorizationLostError` (another instance holds the replacement), end to end.
 */
import {
  AuthorizationLostError,
  authorized,
  authorizeUrl,
  createClient,
  exchangeCode,
  OAuthError,
} from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server.js';
import { approveAt } from './fixture.js';

const server = useTestServer({ demo: { password: 'demo password' } });

describe('a token revoked by a replayed authorization code', () => {
  it('is refused as revoked, and the SDK raises the OAuthError of a refused authorization', async () => {
    const { origin, baseUrl, credentials } = server();
    const { clientId, clientSecret, login } = credentials!;
    const redirectUri = credentials!.redirectUris[0]!;
    const request = await authorizeUrl({ authUrl: origin, clientId, redirectUri, scope: 'admin' });
    const callback = {
      authUrl: origin,
      clientId,
      clientSecret,
      redirectUri,
      callbackUrl: await approveAt(request.url, login, 'demo password'),
      state: request.state,
      codeVerifier: request.codeVerifier!,
    };
    const token = await exchangeCode(callback);
    const replay = await exchangeCode(callback).catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(OAuthError);

    const lost: unknown[] = [];
    const auth = authorized({
      authUrl: origin,
      clientId,
      clientSecret,
      accessToken: token.accessToken,
      onAuthorizationLost: async (error) => {
        lost.push(error);
        return undefined;
      },
    });
    const failure = await createClient({ baseUrl, auth })
      .root()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OAuthError);
    expect(failure).not.toBeInstanceOf(AuthorizationLostError);
    expect(failure).toMatchObject({ error: 'invalid_grant', errorDescription: expect.stringMatching(/was revoked/) });
    expect((failure as OAuthError).errorDescription).not.toMatch(/already exchanged/);
    expect(lost).toEqual([]);
  });
});
