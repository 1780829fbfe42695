/**
 * oauth4webapi, an OAuth client written to the RFCs and strict about responses, against the real server: the
 * client credentials, password and JWT bearer grants, each response validated by it, each token used.
 */
import { SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { useClientsServer } from './server.js';

const running = useClientsServer();

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The server speaks plain HTTP on a free port. */
const insecure = { [oauth.allowInsecureRequests]: true };

function setup() {
  const { server, credentials } = running();
  const as: oauth.AuthorizationServer = { issuer: server.origin, token_endpoint: `${server.origin}/oauth/token` };
  const client: oauth.Client = { client_id: credentials.clientId };
  return { server, credentials, as, client };
}

/** What the resource API makes of a token: the root's status and, on 200, who it speaks for. */
async function rootWith(token: string): Promise<{ status: number; scopes?: string }> {
  const response = await fetch(running().server.baseUrl, { headers: { authorization: `Bearer ${token}` } });
  return response.ok ? { status: 200, scopes: ((await response.json()) as { scopes: string }).scopes } : response;
}

/** An assertion of the JWT bearer grant (spec §5.1), signed by a JOSE library, not by the SDK. */
function assertion(issuer: string, subject: string, secret: string): Promise<string> {
  return new SignJWT({ sub: subject })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(`${running().server.origin}/oauth/token`)
    .setIssuedAt()
    .setExpirationTime('1 minute')
    .sign(new TextEncoder().encode(secret));
}

describe('oauth4webapi', () => {
  it.each([
    ['HTTP Basic', oauth.ClientSecretBasic],
    ['the request body', oauth.ClientSecretPost],
  ])('obtains a token by client credentials, the secret in %s', async (_, method) => {
    const { credentials, as, client } = setup();
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      method(credentials.clientSecret),
      { scope: 'admin' },
      insecure,
    );
    const result = await oauth.processClientCredentialsResponse(as, client, response);
    expect(result).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'admin' });
    expect(await rootWith(result.access_token)).toEqual({ status: 200, scopes: 'admin' });
  });

  it('obtains a token by the password grant', async () => {
    const { credentials, as, client } = setup();
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      oauth.ClientSecretBasic(credentials.clientSecret),
      'password',
      { username: credentials.login, password: credentials.password, scope: 'admin public' },
      insecure,
    );
    const result = await oauth.processGenericTokenEndpointResponse(as, client, response);
    expect(result).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'admin public' });
    expect(await rootWith(result.access_token)).toEqual({ status: 200, scopes: 'admin,public' });
  });

  it('exchanges a token by the JWT bearer grant as an unauthenticated client (client_id, no secret)', async () => {
    const { credentials, as, client } = setup();
    const first = await oauth.processClientCredentialsResponse(
      as,
      client,
      await oauth.clientCredentialsGrantRequest(
        as,
        client,
        oauth.ClientSecretBasic(credentials.clientSecret),
        { scope: 'admin public' },
        insecure,
      ),
    );
    const jwt = await assertion(credentials.clientId, first.access_token, credentials.clientSecret);
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      oauth.None(),
      JWT_BEARER,
      { assertion: jwt },
      insecure,
    );
    const result = await oauth.processGenericTokenEndpointResponse(as, client, response);
    expect(result).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'admin public' });
    expect(await rootWith(result.access_token)).toEqual({ status: 200, scopes: 'admin,public' });
    // One exchange per token: the old one is revoked.
    expect((await rootWith(first.access_token)).status).toBe(401);
  });

  it('sees a failed assertion as invalid_grant saying what failed', async () => {
    const { credentials, as, client } = setup();
    const jwt = await assertion(credentials.clientId, 'not a token of this client', credentials.clientSecret);
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      oauth.None(),
      JWT_BEARER,
      { assertion: jwt },
      insecure,
    );
    const failure = await oauth
      .processGenericTokenEndpointResponse(as, client, response)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oauth.ResponseBodyError);
    expect(failure).toMatchObject({ status: 400, error: 'invalid_grant' });
    expect((failure as oauth.ResponseBodyError).error_description).toMatch(/subject is not an access token/);
  });
});
