/** The failure handlers a test puts first with `server.use(...)`: expired token, 5xx, slow response, network error. */
import * as oauth from 'oauth4webapi';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { useMock } from './mocked.js';

const { mock, server, clientToken, call } = useMock({ clock: { now: () => Date.UTC(2026, 10, 21, 9) } });

afterEach(() => {
  vi.useRealTimers();
});

describe('serverError', () => {
  test('answers the API error body and headers, every time by default', async () => {
    const admin = await clientToken();
    server.use(mock.serverError());
    for (let i = 0; i < 2; i++) {
      const response = await call(mock.baseUrl, admin);
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('must-revalidate, private, max-age=0');
      expect(response.headers.get('date')).toBe('Sat, 21 Nov 2026 09:00:00 GMT');
      expect(response.headers.get('last-modified')).toBeNull();
      // Named as the server's own errors are, in the body and in X-Request-Id.
      expect(await response.json()).toEqual({
        _class: ['errors'],
        message: 'Internal server error',
        request_id: response.headers.get('x-request-id'),
      });
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  test('times, status, Retry-After, path and method select what fails', async () => {
    const admin = await clientToken();
    server.use(mock.serverError({ status: 503, times: 1, retryAfter: 2, path: '/v1/shops/:id', method: 'get' }));
    // Another path and another method pass through to the mock.
    expect((await call(mock.baseUrl, admin)).status).toBe(200);
    expect((await call(`${mock.baseUrl}/shops/1`, admin, { method: 'HEAD' })).status).toBe(200);
    const failed = await call(`${mock.baseUrl}/shops/1`, admin, { headers: { 'x-request-id': 'failed-1' } });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('2');
    expect(failed.headers.get('x-request-id')).toBe('failed-1');
    expect(await failed.json()).toEqual({ _class: ['errors'], message: 'Service unavailable', request_id: 'failed-1' });
    expect((await call(`${mock.baseUrl}/shops/1`, admin)).status).toBe(200);
  });

  test("answers at the token endpoint as the server would there: RFC 6749's error", async () => {
    server.use(mock.serverError({ status: 503, path: '/oauth/token' }));
    const failed = await fetch(`${mock.origin}/oauth/token`, {
      method: 'POST',
      headers: { 'x-request-id': 'token-1' },
    });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('x-request-id')).toBe('token-1');
    expect(await failed.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'Service unavailable',
      request_id: 'token-1',
    });
  });

  // RFC 6749 §5.2 defines a token endpoint's error bodies for 400 and 401 only: a peer takes a 503 as a failure of
  // the service (its status), not as a refusal of the grant, whatever the body names.
  test('a peer OAuth client (oauth4webapi) takes that answer for an unavailable service, not a refused grant', async () => {
    server.use(mock.serverError({ status: 503, path: '/oauth/token' }));
    const as = { issuer: mock.origin, token_endpoint: `${mock.origin}/oauth/token` };
    const { clientId, clientSecret } = mock.credentials!;
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      { client_id: clientId },
      oauth.ClientSecretBasic(clientSecret),
      new URLSearchParams({ scope: 'admin' }),
      { [oauth.allowInsecureRequests]: true },
    );
    const refused = await oauth
      .processClientCredentialsResponse(as, { client_id: clientId }, response)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(oauth.OperationProcessingError);
    expect(refused).toMatchObject({ code: oauth.RESPONSE_IS_NOT_CONFORM });
    const answer = (refused as { cause: Response }).cause;
    expect(answer.status).toBe(503);
  });

  test('a HEAD request gets the headers without a body', async () => {
    server.use(mock.serverError({ status: 502 }));
    const response = await fetch(mock.baseUrl, { method: 'HEAD' });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('etag')).toBeNull();
    expect(await response.text()).toBe('');
  });

  test('refuses options it cannot honour', () => {
    expect(() => mock.serverError({ status: 418 as 500 })).toThrow(RangeError);
    expect(() => mock.serverError({ retryAfter: -1 })).toThrow(RangeError);
    expect(() => mock.serverError({ times: 1.5 })).toThrow(RangeError);
    expect(() => mock.serverError({ path: 'v1/*' })).toThrow(TypeError);
  });
});

describe('networkError', () => {
  test('makes fetch reject with a TypeError, then lets requests through', async () => {
    server.use(mock.networkError({ times: 1, path: '/oauth/token' }));
    await expect(clientToken()).rejects.toBeInstanceOf(TypeError);
    await expect(clientToken()).resolves.toEqual(expect.any(String));
  });
});

describe('slowResponse', () => {
  test('holds a request for the given time, then the mock answers it', async () => {
    const admin = await clientToken();
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    server.use(mock.slowResponse(5_000, { path: '/v1/shops/:id' }));
    let settled = false;
    const pending = call(`${mock.baseUrl}/shops/1`, admin).then((response) => {
      settled = true;
      return response;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ _class: ['shop'], id: '1' });
  });

  test('refuses a negative or infinite delay', () => {
    expect(() => mock.slowResponse(-1)).toThrow(RangeError);
    expect(() => mock.slowResponse(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('expiredToken', () => {
  test('expires the token of the matching requests: the server 401 with its challenge', async () => {
    const admin = await clientToken();
    server.use(mock.expiredToken({ times: 1 }));
    // Not an API path: untouched.
    expect((await fetch(`${mock.origin}/rels/update_theme`)).status).toBe(200);
    const refused = await call(`${mock.baseUrl}/shops/1`, admin);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="storefront", error="invalid_token"');
    expect(await refused.json()).toEqual({
      _class: ['errors'],
      message: 'The access token has expired',
      request_id: refused.headers.get('x-request-id'),
    });
    // Expired for good (like a real expiry), while a new token passes: the handler was used up.
    expect((await call(`${mock.baseUrl}/shops/1`, admin)).status).toBe(401);
    expect((await call(`${mock.baseUrl}/shops/1`, await clientToken())).status).toBe(200);
  });

  test('expires a JSONP query token too, and ignores requests without a token', async () => {
    const admin = await clientToken();
    server.use(mock.expiredToken());
    const anonymous = await fetch(mock.baseUrl);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="storefront"');
    const jsonp = await fetch(`${mock.baseUrl}/shops/1.jsonp?callback=cb&access_token=${admin}`);
    expect(jsonp.status).toBe(401);
    expect(await jsonp.text()).toBe(
      `/**/cb({"_class":["errors"],"message":"The access token has expired","request_id":"${jsonp.headers.get('x-request-id')}"});`,
    );
  });
});
