/**
 * Requests refused before the core sees them, by Node's parser or by the Express shell itself, answer with the
 * API's JSON error body (and its headers), never Node's bare status line or Express's HTML page.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { CoreHandler } from '../src/core/types.js';
import { createExpressApp } from '../src/express/app.js';
import { createHttpServer } from '../src/express/http-server.js';
import { parseRawResponse, rawExchange } from './helpers/raw-connection.js';
import { useTestServer } from './helpers/test-server.js';

const server = useTestServer({ products: 3 });

function expectJsonError(text: string, status: number) {
  const response = parseRawResponse(text);
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers.connection).toBe('close');
  expect(response.headers['access-control-allow-origin']).toBe('*');
  expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(text.slice(text.indexOf('\r\n\r\n') + 4)));
  // Named as every error is, though the request's own headers were never parsed.
  expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.body).toEqual({
    _class: ['errors'],
    message: expect.any(String),
    request_id: response.headers['x-request-id'],
  });
  return response.body as { message: string };
}

describe("requests Node's parser refuses", () => {
  it('431 for headers past 16 KiB', async () => {
    const { received } = await rawExchange(server().url, [
      `GET /v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]);
    expect(expectJsonError(received, 431).message).toContain('too large');
  });

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['a header without a colon', 'GET /v1 HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
    ['a control character in a header value', 'GET /v1 HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n'],
    ['a bad chunk size', 'POST /v1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
  ])('400 for %s', async (_, request) => {
    const { received } = await rawExchange(server().url, [request]);
    expect(expectJsonError(received, 400).message).toBe('Malformed HTTP request');
  });

  it('still answers a well-formed request afterwards', async () => {
    const response = await fetch(`${server().baseUrl}/`);
    expect(response.status).toBe(401);
  });
});

describe('the Express shell', () => {
  const handle: CoreHandler = async () => ({ status: 200, headers: { 'x-broken': 'line\nbreak' }, body: 'never sent' });
  const http = createHttpServer();
  http.on('request', createExpressApp({ handle, origin: 'http://storefront.test' }));
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  it('answers a response it cannot write with the JSON 500, not an HTML page', async () => {
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const errors: unknown[] = [];
    const log = console.error;
    console.error = (error: unknown) => errors.push(error);
    try {
      const response = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`, {
        headers: { 'x-request-id': 'broken-1' },
      });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('x-broken')).toBeNull();
      expect(response.headers.get('x-request-id')).toBe('broken-1');
      expect(await response.json()).toEqual({
        _class: ['errors'],
        message: 'Internal server error',
        request_id: 'broken-1',
      });
    } finally {
      console.error = log;
    }
    expect(errors).toHaveLength(1);
  });
});
