/**
 * The weights of `Accept-Encoding` and `Accept` are honoured (RFC 9110 §12.4.2, §12.5.1, §12.5.3): the highest wins,
 * `q=0` refuses. Over HTTP: the shell's choice of gzip, and the relation pages' choice of JSON or HTML.
 */
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../src/express/gzip.js';
import { useTestServer } from './helpers/test-server.js';

const server = useTestServer({ products: 2 });

/** A GET as sent, its body as received (fetch would decode the gzip). */
function rawRequest(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

describe('Accept-Encoding weights', () => {
  it.each([
    ['gzip;q=0.001, identity;q=1', false],
    ['gzip;q=0.5, identity;q=0.6', false],
    ['gzip;q=0.5, *;q=0.9', false],
    ['*;q=0.5, identity;q=0.9', false],
    ['gzip;q=x', false],
    ['identity;q=0', false],
    ['gzip;q=0.5, identity;q=0.5', true],
    ['gzip;q=0.001', true],
    ['identity;q=0, gzip;q=0.1', true],
    ['identity;q=0.2, *;q=0.3', true],
    ['gzip;q=1.0, identity;q=0.9', true],
  ])('%s → gzip: %s', (value, expected) => {
    expect(acceptsGzip(value)).toBe(expected);
  });

  it('sends identity when identity weighs more, and gzip when it weighs less, over HTTP', async () => {
    const { baseUrl } = server();
    const url = `${baseUrl}/openapi.json`;
    const heavier = await rawRequest(url, { 'accept-encoding': 'gzip;q=0.001, identity;q=1' });
    expect(heavier.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(heavier.body.toString())).toHaveProperty('openapi');
    const lighter = await rawRequest(url, { 'accept-encoding': 'gzip;q=0.9, identity;q=0.1' });
    expect(lighter.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(lighter.body).toString())).toHaveProperty('openapi');
    // Nothing acceptable: the body is sent uncompressed rather than refused (RFC 9110 §12.1).
    const none = await rawRequest(url, { 'accept-encoding': 'identity;q=0' });
    expect(none.status).toBe(200);
    expect(none.headers['content-encoding']).toBeUndefined();
  });
});

describe('Accept weights of a relation page', () => {
  it.each([
    ['application/json', 'application/json'],
    ['text/html;q=0.5, application/json', 'application/json'],
    ['application/json, */*;q=0.1', 'application/json'],
    ['application/hal+json;q=0.9, text/html;q=0.1', 'application/json'],
    ['text/html, application/json', 'text/html'],
    ['application/json;q=0, text/html;q=0.1', 'text/html'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html'],
    ['*/*', 'text/html'],
  ])('Accept: %s → %s', async (accept, type) => {
    const response = await fetch(`${server().origin}/rels/products`, { headers: { accept } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain(type);
  });
});
