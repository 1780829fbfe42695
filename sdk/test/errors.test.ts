import {
  BadRequestError,
  ForbiddenError,
  HttpError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  OAuthError,
  PayloadTooLargeError,
  PreconditionFailedError,
  ServerError,
  StorefrontError,
  TimeoutError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { createHttpError } from '../src/errors/create-http-error.js';
import { redactHeaders, redactUrl } from '../src/errors/redact.js';
import { createClientKy } from '../src/http/client-ky.js';
import { Emitter } from '../src/http/events.js';
import { responseError } from '../src/http/failures.js';
import { Transport } from '../src/http/transport.js';

/** The typed error the transport makes of a failed `response` (sent once: no retries, no time limit). */
async function errorFromResponse(response: Response, method: string, url: string): Promise<HttpError> {
  const transport = new Transport({
    http: createClientKy({ fetch: async () => response, retry: false, timeout: 0 }),
    emitter: new Emitter(),
    trusted: new Set(),
    maxResponseSize: false,
  });
  const error = await transport.request({ method, url }).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error;
}

const request = { method: 'GET', url: 'http://api.test/v1/x?access_token=s3cret&page=2' };

describe('createHttpError', () => {
  it.each([
    [400, BadRequestError, 'BAD_REQUEST'],
    [401, UnauthorizedError, 'UNAUTHORIZED'],
    [403, ForbiddenError, 'FORBIDDEN'],
    [404, NotFoundError, 'NOT_FOUND'],
    [405, MethodNotAllowedError, 'METHOD_NOT_ALLOWED'],
    [412, PreconditionFailedError, 'PRECONDITION_FAILED'],
    [413, PayloadTooLargeError, 'PAYLOAD_TOO_LARGE'],
    [415, UnsupportedMediaTypeError, 'UNSUPPORTED_MEDIA_TYPE'],
    [422, ValidationError, 'VALIDATION_FAILED'],
    [409, HttpError, 'HTTP_ERROR'],
    [429, HttpError, 'HTTP_ERROR'],
    [500, ServerError, 'SERVER_ERROR'],
    [503, ServerError, 'SERVER_ERROR'],
  ] as const)('maps %i to %o with code %s', (status, ErrorClass, code) => {
    const body = { _class: ['errors'], message: 'Something about it' };
    const error = createHttpError({ ...request, status, body, headers: { allow: 'GET' } });
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(StorefrontError);
    expect(error.constructor).toBe(ErrorClass);
    expect(error).toMatchObject({ code, status, method: 'GET', body, headers: { allow: 'GET' } });
    expect(error.name).toBe(ErrorClass.name);
    expect(error.url).toBe('http://api.test/v1/x?access_token=[REDACTED]&page=2');
    expect(error.message).toBe(`GET ${error.url} failed with ${status}: Something about it`);
  });

  it('lists the field errors of a 422', () => {
    const error = createHttpError({
      method: 'PUT',
      url: 'http://api.test/v1/themes/1/templates/2',
      status: 422,
      body: {
        _class: ['errors'],
        message: 'Validation failed',
        _embedded: { errors: [{ field: 'updated_on', messages: ['was changed by someone else'] }, { bad: 1 }] },
      },
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([
      { field: 'updated_on', messages: ['was changed by someone else'] },
    ]);
    // One sentence, the server's: the field errors are in `errors`, not repeated in the message.
    expect(error.message).toBe('PUT http://api.test/v1/themes/1/templates/2 failed with 422: Validation failed');
  });

  it('recognises token-endpoint bodies as OAuth errors', () => {
    const error = createHttpError({
      method: 'POST',
      url: 'http://api.test/oauth/token',
      status: 400,
      body: { error: 'invalid_grant', error_description: 'exp is required' },
    });
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ code: 'OAUTH_ERROR', error: 'invalid_grant', errorDescription: 'exp is required' });
    expect(error.message).toMatch(/exp is required$/);
  });

  it('gives an OAuth error the request id of its answer, as any HTTP error', () => {
    const error = createHttpError({
      method: 'POST',
      url: 'http://api.test/oauth/token',
      status: 401,
      headers: { 'x-request-id': 'r-7' },
      body: { error: 'invalid_client', error_description: 'Client authentication failed', request_id: 'r-7' },
    });
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ requestId: 'r-7', error: 'invalid_client' });
    expect(error.message).toBe(
      'POST http://api.test/oauth/token failed with 401: Client authentication failed [request r-7]',
    );
  });
});

describe('error bodies', () => {
  it('reads a JSON body, a text body and an empty body', async () => {
    const jsonError = await errorFromResponse(
      new Response('{"_class":["errors"],"message":"nope"}', {
        status: 403,
        headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': 'Bearer error="x"' },
      }),
      'DELETE',
      'http://api.test/v1/a',
    );
    expect(jsonError).toBeInstanceOf(ForbiddenError);
    expect(jsonError).toMatchObject({ method: 'DELETE', body: { message: 'nope' } });
    expect(jsonError.headers['www-authenticate']).toBe('Bearer error="x"');

    const textError = await errorFromResponse(
      new Response('upstream broke', {
        status: 502,
        statusText: 'Bad Gateway',
        headers: { 'content-type': 'text/plain' },
      }),
      'GET',
      'http://api.test/v1/a',
    );
    expect(textError).toMatchObject({ code: 'SERVER_ERROR', body: 'upstream broke' });
    const empty = await errorFromResponse(
      new Response(null, { status: 404, statusText: 'Not Found' }),
      'GET',
      'http://a.test/',
    );
    expect(empty.body).toBeUndefined();
    expect(empty.message).toBe('GET http://a.test/ failed with 404: Not Found');
  });
});

describe('redaction', () => {
  it('redacts every credential-bearing query and fragment parameter and the whole userinfo', () => {
    const url =
      'https://u:pw@api.test/cb?code=abc&state=ok&client_secret=s&assertion=jwt&password=p&refresh_token=r#access_token=t&token_type=Bearer';
    const redacted = redactUrl(url);
    for (const secret of ['abc', '=s&', 'jwt', '=p&', '=r#', '=t&', 'pw@', 'u:'])
      expect(redacted).not.toContain(secret);
    expect(redacted).toBe(
      'https://[REDACTED]@api.test/cb?code=[REDACTED]&state=ok&client_secret=[REDACTED]&assertion=[REDACTED]&password=[REDACTED]&refresh_token=[REDACTED]#access_token=[REDACTED]&token_type=Bearer',
    );
    expect(redactUrl('/relative?access_token=x')).toBe('/relative?access_token=[REDACTED]');
    expect(redactUrl('https://T0KEN@api.test/v1/a@b')).toBe('https://[REDACTED]@api.test/v1/a@b');
    expect(redactUrl('https://api.test/v1/a@b')).toBe('https://api.test/v1/a@b');
  });

  it('redacts whatever the case of the name, and pairs separated by ;', () => {
    expect(redactUrl('/v1/shops.jsonp?ACCESS_TOKEN=t&Code=c')).toBe(
      '/v1/shops.jsonp?ACCESS_TOKEN=[REDACTED]&Code=[REDACTED]',
    );
    expect(redactUrl('/v1/shops.jsonp?callback=cb;access_token=t;x=1&Password=p')).toBe(
      '/v1/shops.jsonp?callback=cb;access_token=[REDACTED];x=1&Password=[REDACTED]',
    );
    expect(redactUrl('/a?x=1;y=2&z=3#Access_Token=t;state=s')).toBe('/a?x=1;y=2&z=3#Access_Token=[REDACTED];state=s');
  });

  it('redacts credential-bearing response headers kept by an HTTP error', async () => {
    const response = new Response('{"message":"no"}', {
      status: 403,
      headers: { 'content-type': 'application/json', 'set-cookie': 'session=s3cret', 'x-request-id': 'r1' },
    });
    // A Request refuses a URL with credentials: this error is made as the transport makes it of a response.
    const error = await responseError('GET', 'https://T0KEN@api.test/v1/', response, false);
    expect(error.headers).toMatchObject({ 'set-cookie': '[REDACTED]', 'x-request-id': 'r1' });
    expect(error.url).toBe('https://[REDACTED]@api.test/v1/');
    expect(JSON.stringify(error.headers) + error.message).not.toMatch(/s3cret|T0KEN/);
    // Nor does the refusal to send such a URL show them.
    const refusal = await errorFromResponse(response, 'GET', 'https://T0KEN@api.test/v1/').catch((e: Error) => e);
    expect(refusal.message).toMatch(
      /^expected an HttpError, got TypeError: GET https:\/\/\[REDACTED\]@api\.test\/v1\//,
    );
    expect(refusal.message).not.toContain('T0KEN');
  });

  it('redacts authorization and cookie headers', () => {
    expect(
      redactHeaders(new Headers({ Authorization: 'Bearer abc', Accept: 'application/json', Cookie: 'a=b' })),
    ).toEqual({
      authorization: '[REDACTED]',
      accept: 'application/json',
      cookie: '[REDACTED]',
    });
  });

  it('keeps secrets out of network and timeout errors', () => {
    const network = new NetworkError({
      method: 'GET',
      url: 'http://a.test/?access_token=t',
      cause: new Error('refused'),
    });
    expect(network).toMatchObject({ code: 'NETWORK_ERROR', url: 'http://a.test/?access_token=[REDACTED]' });
    expect(network.message).toBe('GET http://a.test/?access_token=[REDACTED] failed without a response: refused');
    const timeout = new TimeoutError({ method: 'PUT', url: 'http://a.test/?password=p', timeout: 50 });
    expect(timeout.message).toBe('PUT http://a.test/?password=[REDACTED] timed out after 50 ms');
  });
});
