import { describe, expect, it } from 'vitest';
import { basicAuthorization } from '../../src/auth/client-authentication.js';
import { clientCredentials } from '../../src/auth/client-credentials.js';
import { requestToken } from '../../src/auth/token-endpoint.js';
import { InvalidResponseError, NetworkError, OAuthError, ServerError, TimeoutError } from '../../src/errors/index.js';
import { fakeTokenEndpoint, tokenBody } from './fake-token-endpoint.js';

const authUrl = 'http://auth.test/';

describe('basicAuthorization', () => {
  it('form-urlencodes id and secret before base64 (RFC 6749 App. B)', () => {
    const header = basicAuthorization({ clientId: 'my app:1', clientSecret: 'a+b/c=d é' });
    expect(header).toBe(`Basic ${btoa('my+app%3A1:a%2Bb%2Fc%3Dd+%C3%A9')}`);
  });
});

describe('requestToken', () => {
  it('POSTs the grant form-encoded with Basic client auth and parses the token', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ body: tokenBody('T1', 60, 'admin,public') }));
    const token = await requestToken({
      authUrl,
      fetch: endpoint.fetch,
      now: () => 1_000,
      client: { clientId: 'app', clientSecret: 's3cret' },
      params: { grant_type: 'client_credentials', scope: 'admin' },
    });
    expect(token).toEqual({ accessToken: 'T1', tokenType: 'Bearer', expiresAt: 61_000, scopes: ['admin', 'public'] });
    const [call] = endpoint.calls;
    expect(call?.url).toBe('http://auth.test/oauth/token');
    expect(call?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(call?.headers.get('authorization')).toBe(`Basic ${btoa('app:s3cret')}`);
    expect(Object.fromEntries(call?.params ?? [])).toEqual({ grant_type: 'client_credentials', scope: 'admin' });
  });

  it('reads RFC 6749’s space-separated scope when the spec’s `scopes` is absent', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ body: { access_token: 'T', token_type: 'bearer', scope: 'a b' } }));
    const token = await requestToken({ authUrl, fetch: endpoint.fetch, params: { grant_type: 'client_credentials' } });
    expect(token).toEqual({ accessToken: 'T', tokenType: 'Bearer', scopes: ['a', 'b'] });
  });

  it('turns an RFC 6749 error into an OAuthError, with the secrets it echoes redacted', async () => {
    const endpoint = fakeTokenEndpoint((call) => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: `wrong password ${call.params.get('password')} for u` },
    }));
    const failure = await requestToken({
      authUrl,
      fetch: endpoint.fetch,
      client: { clientId: 'app', clientSecret: 's3cret' },
      params: { grant_type: 'password', username: 'u', password: 'hunter2' },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OAuthError);
    const error = failure as OAuthError;
    expect(error.error).toBe('invalid_grant');
    expect(error.errorDescription).toBe('wrong password [REDACTED] for u');
    expect(error.status).toBe(400);
    expect(`${error.message} ${JSON.stringify(error)}`).not.toMatch(/hunter2|s3cret/);
  });

  it.each(['refresh_token', 'client_assertion'])('redacts an echoed %s, as every secret parameter', async (name) => {
    const endpoint = fakeTokenEndpoint((call) => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: `${call.params.get(name)} is not known` },
    }));
    const error = await requestToken({
      authUrl,
      fetch: endpoint.fetch,
      params: { grant_type: 'refresh_token', [name]: 'rt-9f8e7d' },
    }).catch((e: unknown) => e);
    expect((error as OAuthError).errorDescription).toBe('[REDACTED] is not known');
    expect(`${(error as OAuthError).message} ${JSON.stringify(error)}`).not.toContain('rt-9f8e7d');
  });

  it('turns a 401 invalid_client into an OAuthError', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ status: 401, body: { error: 'invalid_client' } }));
    const error = await requestToken({
      authUrl,
      fetch: endpoint.fetch,
      client: { clientId: 'app', clientSecret: 'nope' },
      params: { grant_type: 'client_credentials' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).error).toBe('invalid_client');
    expect((error as OAuthError).status).toBe(401);
  });

  it('a 5xx without an OAuth body is a ServerError', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ status: 503, body: { message: 'down' } }));
    const error = await requestToken({ authUrl, fetch: endpoint.fetch, params: { grant_type: 'x' } }).catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
  });

  it('a 200 that is not a bearer token is an InvalidResponseError that does not hold the token', async () => {
    const endpoint = fakeTokenEndpoint(() => ({ body: { access_token: 'LEAK', token_type: 'mac' } }));
    const error = await requestToken({ authUrl, fetch: endpoint.fetch, params: { grant_type: 'x' } }).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(JSON.stringify((error as InvalidResponseError).body)).not.toContain('LEAK');
  });

  it('a request without response is a NetworkError; an abort stays an abort', async () => {
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(requestToken({ authUrl, fetch: refused, params: { grant_type: 'x' } })).rejects.toBeInstanceOf(
      NetworkError,
    );
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const aborting: typeof fetch = async (_, init) => {
      throw init?.signal?.reason;
    };
    await expect(
      requestToken({ authUrl, fetch: aborting, params: { grant_type: 'x' }, signal: controller.signal }),
    ).rejects.toThrow('stop');
  });

  it('gives up with a TimeoutError when the endpoint never answers, even through a fetch deaf to its signal', async () => {
    const silent: typeof fetch = () => new Promise<Response>(() => {});
    const error = await requestToken({ authUrl, fetch: silent, timeout: 20, params: { grant_type: 'x' } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'TIMEOUT', method: 'POST', url: 'http://auth.test/oauth/token', timeout: 20 });
  });

  it('times out a response whose body never ends, and hands that limit to the strategies', async () => {
    const stalledBody: typeof fetch = async () =>
      new Response(new ReadableStream({ start: () => {} }), { headers: { 'content-type': 'application/json' } });
    const strategy = clientCredentials({ authUrl, fetch: stalledBody, timeout: 20, clientId: 'a', clientSecret: 's' });
    await expect(strategy.credentials()).rejects.toBeInstanceOf(TimeoutError);
  });
});
