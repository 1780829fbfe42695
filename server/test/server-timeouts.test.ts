/**
 * Idle and slow connections are let go: headers must arrive within `timeouts.headersMs` (a client trickling
 * them byte by byte is cut off with a JSON 408), and a keep-alive connection may idle `timeouts.keepAliveMs`
 * (Node adds a second of grace). Small timeouts through the option; durations are printed, not asserted.
 */
import { createServer as createNodeServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createHttpServer } from '../src/express/http-server.js';
import { DEFAULT_TIMEOUTS, timeoutOptions } from '../src/express/timeouts.js';
import { parseRawResponse, rawExchange } from './helpers/raw-connection.js';
import { useTestServer } from './helpers/test-server.js';

const server = useTestServer({ products: 3, timeouts: { headersMs: 300, requestMs: 2000, keepAliveMs: 200 } });

describe('slow and idle clients', () => {
  it('cuts off a client that sends its headers byte by byte, with a JSON 408', async () => {
    const request = `GET /v1 HTTP/1.1\r\nHost: x\r\nX-Slow: ${'s'.repeat(200)}\r\n\r\n`;
    const { received, ms, written } = await rawExchange(server().url, [...request], 20);
    console.log(`slow headers: cut off after ${ms.toFixed(0)} ms, ${written} of ${request.length} bytes sent`);
    expect(written).toBeLessThan(request.length);
    const response = parseRawResponse(received);
    expect(response.status).toBe(408);
    // Named like every error: the id of ours the header carries (the client's was never read).
    expect(response.body).toEqual({
      _class: ['errors'],
      message: expect.stringContaining('timeout'),
      request_id: response.headers['x-request-id'],
    });
    expect(response.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
  });

  it('closes a connection that sends nothing', async () => {
    const { received, ms } = await rawExchange(server().url, []);
    console.log(`silent connection: closed after ${ms.toFixed(0)} ms`);
    expect(parseRawResponse(received).status).toBe(408);
  });

  it('closes a keep-alive connection left idle after its response', async () => {
    const { received, ms } = await rawExchange(server().url, ['GET /v1 HTTP/1.1\r\nHost: x\r\n\r\n']);
    console.log(`idle keep-alive connection: closed ${ms.toFixed(0)} ms after its request`);
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    expect(received.match(/HTTP\/1\.1/g)).toHaveLength(1);
  });

  it('keeps a connection that sends its requests in time', async () => {
    const request = 'GET /v1 HTTP/1.1\r\nHost: x\r\n\r\n';
    const { received } = await rawExchange(
      server().url,
      [request, request, `${request.slice(0, -2)}Connection: close\r\n\r\n`],
      50,
    );
    expect(received.match(/HTTP\/1\.1 401 /g)).toHaveLength(3);
  });
});

describe('the timeouts', () => {
  it('are set deliberately by default, tighter than Node’s own', () => {
    const node = createNodeServer();
    const ours = createHttpServer();
    expect(DEFAULT_TIMEOUTS).toEqual({ headersMs: 10_000, requestMs: 60_000, keepAliveMs: 5_000 });
    expect([ours.headersTimeout, ours.requestTimeout, ours.keepAliveTimeout]).toEqual([10_000, 60_000, 5_000]);
    expect(ours.headersTimeout).toBeLessThan(node.headersTimeout);
    expect(ours.requestTimeout).toBeLessThan(node.requestTimeout);
    expect(timeoutOptions().connectionsCheckingInterval).toBe(1000);
  });

  it.each([
    [{ headersMs: 0 }, 'headersMs'],
    [{ keepAliveMs: 1.5 }, 'keepAliveMs'],
    [{ headersMs: 5000, requestMs: 1000 }, 'must not exceed'],
  ])('refuses %j', (timeouts, message) => {
    expect(() => timeoutOptions(timeouts)).toThrow(message);
  });
});
