/**
 * gzip in the Express shell: when it applies (the client's Accept-Encoding, the media type, the size), what
 * goes on the wire (bytes, Content-Length, Content-Encoding, Vary), and that a body is gzipped once per
 * representation rather than once per request.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import type { CoreResponse } from '../src/core/types.js';
import { createExpressApp } from '../src/express/app.js';
import {
  acceptsGzip,
  GZIP_THRESHOLD,
  GzipCache,
  isGzippable,
  SYNC_GZIP_LIMIT,
  varyOnEncoding,
  WRITE_GZIP_THRESHOLD,
} from '../src/express/gzip.js';
import { type Doc, useThemeServer } from './themes/fixture.js';

// Counts the compressions the shell runs (the server runs in this process), on the module it loads at its first gzip.
const zlib = process.getBuiltinModule('node:zlib');
const gzip = vi.spyOn(zlib, 'gzip');
const gzipSync = vi.spyOn(zlib, 'gzipSync');
const gzipCalls = () => gzip.mock.calls.length + gzipSync.mock.calls.length;

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, GZIP;q=0.5', true],
    ['x-gzip', true],
    ['*', true],
    ['deflate, *;q=0.1', true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br, deflate', false],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
  ])('%s → %s', (value, expected) => {
    expect(acceptsGzip(value)).toBe(expected);
  });
});

describe('isGzippable', () => {
  const big = 'x'.repeat(GZIP_THRESHOLD);
  const response = (headers: Record<string, string>): CoreResponse => ({ status: 200, headers });

  it('takes text, JSON, JavaScript and SVG of at least the threshold', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'text/html; charset=utf-8',
      'text/javascript',
      'application/hal+json',
      'image/svg+xml',
    ]) {
      expect(isGzippable(response({ 'content-type': type }), big)).toBe(true);
    }
  });

  it('leaves small bodies, compressed media, encoded and no-transform responses alone', () => {
    const json = { 'content-type': 'application/json' };
    expect(isGzippable(response(json), big.slice(1))).toBe(false);
    expect(isGzippable(response(json), new Uint8Array(GZIP_THRESHOLD - 1))).toBe(false);
    expect(isGzippable(response({ 'content-type': 'image/png' }), big)).toBe(false);
    expect(isGzippable(response({}), big)).toBe(false);
    expect(isGzippable(response({ ...json, 'content-encoding': 'br' }), big)).toBe(false);
    expect(isGzippable(response({ ...json, 'cache-control': 'public, no-transform' }), big)).toBe(false);
  });

  it('takes an answer to a write from its own, larger threshold; HEAD as GET', () => {
    const json = response({ 'content-type': 'application/json' });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(isGzippable(json, big, method)).toBe(false);
      expect(isGzippable(json, new Uint8Array(WRITE_GZIP_THRESHOLD - 1), method)).toBe(false);
      expect(isGzippable(json, new Uint8Array(WRITE_GZIP_THRESHOLD), method)).toBe(true);
    }
    expect(isGzippable(json, big, 'HEAD')).toBe(true);
    expect(isGzippable(json, big, 'GET')).toBe(true);
  });

  it('counts a text body in UTF-8 bytes', () => {
    expect(isGzippable(response({ 'content-type': 'text/plain' }), 'é'.repeat(GZIP_THRESHOLD / 2))).toBe(true);
  });
});

describe('varyOnEncoding', () => {
  it('adds Accept-Encoding once', () => {
    expect(varyOnEncoding(undefined)).toBe('Accept-Encoding');
    expect(varyOnEncoding('Origin')).toBe('Origin, Accept-Encoding');
    expect(varyOnEncoding('accept-encoding')).toBe('accept-encoding');
    expect(varyOnEncoding('Origin, Accept-Encoding')).toBe('Origin, Accept-Encoding');
    expect(varyOnEncoding('*')).toBe('*');
    expect(varyOnEncoding('Accept-Encoding-Extra')).toBe('Accept-Encoding-Extra, Accept-Encoding');
  });
});

describe('GzipCache', () => {
  const items = (n: number) =>
    JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ id: i, title: `item ${i}` })) });
  const text = items(200);
  /** Larger than what is gzipped in place: compressed in the thread pool. */
  const large = items(2000);

  it('gzips a large body object once, in the thread pool, and hands out the same bytes afterwards', async () => {
    expect(large.length).toBeGreaterThan(SYNC_GZIP_LIMIT);
    const cache = new GzipCache();
    const body = new TextEncoder().encode(large);
    const first = cache.gzip(body);
    expect(first).toBeInstanceOf(Promise);
    // Concurrent requests for a body under compression wait for the same work.
    expect(cache.gzip(body)).toBe(first);
    const zipped = await first;
    expect(gunzipSync(zipped).toString()).toBe(large);
    expect(cache.gzip(body)).toBe(zipped);
  });

  it('gzips a small body in place, once', () => {
    expect(text.length).toBeLessThanOrEqual(SYNC_GZIP_LIMIT);
    const cache = new GzipCache();
    const body = new TextEncoder().encode(text);
    const zipped = cache.gzip(body);
    expect(zipped).toBeInstanceOf(Uint8Array);
    expect(gunzipSync(zipped as Uint8Array).toString()).toBe(text);
    expect(cache.gzip(body)).toBe(zipped);
  });

  it('gzips another body object afresh, even with equal bytes', async () => {
    const cache = new GzipCache();
    const one = await cache.gzip(new TextEncoder().encode(text));
    const other = await cache.gzip(new TextEncoder().encode(text));
    expect(other).not.toBe(one);
    expect(gunzipSync(other).toString()).toBe(text);
  });

  it('gzips text bodies per call, small ones in place', async () => {
    const cache = new GzipCache();
    const one = cache.gzip(text);
    expect(one).toBeInstanceOf(Uint8Array);
    expect(gunzipSync(await one).toString()).toBe(text);
    expect(cache.gzip(text)).not.toBe(one);
    const big = cache.gzip(large);
    expect(big).toBeInstanceOf(Promise);
    expect(gunzipSync(await big).toString()).toBe(large);
  });
});

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

/** A request without fetch's own decoding, so that the bytes on the wire can be checked. */
const raw = (url: URL, headers: Record<string, string>, method = 'GET') =>
  new Promise<RawResponse>((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

describe('Vary of responses the core does not mark', () => {
  it('gets Accept-Encoding when the response could be gzipped, whatever the client accepts', async () => {
    const app = createExpressApp({
      origin: 'http://storefront.test',
      handle: async (request) => ({
        status: 200,
        headers: { 'content-type': 'text/plain', vary: 'Origin' },
        body: request.url.pathname === '/big' ? 'x'.repeat(GZIP_THRESHOLD) : 'small',
      }),
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const headers of [{}, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
        expect((await raw(new URL(`${origin}/big`), headers)).headers.vary).toBe('Origin, Accept-Encoding');
        expect((await raw(new URL(`${origin}/small`), headers)).headers.vary).toBe('Origin');
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('over HTTP', () => {
  const t = useThemeServer();

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    raw(new URL(`${t.base}${path}`), { authorization: `Bearer ${t.admin}`, ...headers }, method);

  const THEME = '/shops/1/theme.json';

  it('sends the plain bytes when gzip is not accepted, still varying on Accept-Encoding', async () => {
    const refusals: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'gzip;q=0, deflate' },
    ];
    for (const headers of refusals) {
      const response = await get(THEME, headers);
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(Number(response.headers['content-length'])).toBe(response.bytes.length);
      expect((JSON.parse(response.bytes.toString()) as Doc)._class).toEqual(['theme']);
    }
  });

  it('sends gzip that decodes to the same body, with its own Content-Length and entity tag', async () => {
    const plain = await get(THEME);
    const zipped = await get(THEME, { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.bytes.length);
    expect(zipped.bytes.length).toBeLessThan(plain.bytes.length);
    expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);
    // A strong validator names one representation's bytes (RFC 9110 §8.8.3): the gzip one has its own.
    expect(zipped.headers.etag).toBe(plain.headers.etag!.replace(/"$/, '-gzip"'));
    expect(zipped.headers['last-modified']).toBe(plain.headers['last-modified']);
  });

  it('gzips a representation once while it is unchanged, and once more after a change', async () => {
    const gzip = { 'accept-encoding': 'gzip' };
    const first = await get(THEME, gzip);
    const unchanged = gzipCalls();
    const second = await get(THEME, gzip);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(gzipCalls()).toBe(unchanged);

    const theme = JSON.parse(gunzipSync(first.bytes).toString()) as Doc;
    const template = (theme._embedded.templates as Doc[]).find((x) => x.file_name !== 'layout.html')!;
    const updated = await t.call(template._links.self.href, {
      method: 'PUT',
      json: { body: `${template.body}\n<!-- changed by the gzip test -->` },
    });
    expect(updated.status).toBe(200);

    const changed = gzipCalls();
    const after = await get(THEME, gzip);
    expect(gzipCalls()).toBe(changed + 1);
    expect((await get(THEME, gzip)).bytes.equals(after.bytes)).toBe(true);
    expect(gzipCalls()).toBe(changed + 1);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    const decoded = gunzipSync(after.bytes);
    expect(decoded.toString()).toContain('changed by the gzip test');
    expect(decoded.equals((await get(THEME)).bytes)).toBe(true);
  });

  it("gives HEAD the GET's headers without a body, and 304 neither body nor Content-Encoding", async () => {
    const gzip = { 'accept-encoding': 'gzip' };
    const full = await get(THEME, gzip);
    const head = await get(THEME, gzip, 'HEAD');
    expect(head.status).toBe(200);
    for (const name of ['content-encoding', 'content-length', 'etag', 'last-modified', 'vary']) {
      expect([name, head.headers[name]]).toEqual([name, full.headers[name]]);
    }
    expect(head.bytes.length).toBe(0);
    const plainHead = await get(THEME, {}, 'HEAD');
    expect(plainHead.headers['content-encoding']).toBeUndefined();
    expect(Number(plainHead.headers['content-length'])).toBe((await get(THEME)).bytes.length);
    // Either tag revalidates; the 304 names the representation the client holds.
    for (const held of [head.headers.etag!, plainHead.headers.etag!]) {
      const notModified = await get(THEME, { ...gzip, 'if-none-match': held });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.etag).toBe(held);
      expect(notModified.headers['content-encoding']).toBeUndefined();
      expect(notModified.bytes.length).toBe(0);
    }
  });

  it("sends a write's answer plain under its threshold, gzipped above, as a GET of it would be", async () => {
    const gzip = { 'accept-encoding': 'gzip' };
    const theme = await t.json(`${t.base}${THEME}`);
    const template = (theme._embedded.templates as Doc[]).find((x) => x.file_name !== 'layout.html')!;
    const put = (body: string) => t.call(template._links.self.href, { method: 'PUT', headers: gzip, json: { body } });
    const small = await put(`${template.body}\n<!-- a write of a few kilobytes -->`);
    expect(small.status).toBe(200);
    const smallBytes = new TextEncoder().encode(await small.text()).byteLength;
    expect(smallBytes).toBeGreaterThan(GZIP_THRESHOLD);
    expect(smallBytes).toBeLessThan(WRITE_GZIP_THRESHOLD);
    expect(small.headers.get('content-encoding')).toBeNull();
    // Its tag is the plain representation's, which a later write may send as If-Match.
    const read = await get(new URL(template._links.self.href).pathname.replace(/^\/v1/, ''), gzip);
    expect(read.headers['content-encoding']).toBe('gzip');
    expect(read.headers.etag).toBe(small.headers.get('etag')!.replace(/"$/, '-gzip"'));
    const guarded = await t.call(template._links.self.href, {
      method: 'PUT',
      headers: { ...gzip, 'if-match': small.headers.get('etag')! },
      json: { body: `<p>${'a line of a large template '.repeat(WRITE_GZIP_THRESHOLD / 20)}</p>\n` },
    });
    expect(guarded.status).toBe(200);
    expect(guarded.headers.get('content-encoding')).toBe('gzip');
    expect(((await guarded.json()) as Doc).body).toContain('a line of a large template');
  });

  it('gzips JSONP text and leaves small responses plain', async () => {
    const jsonp = await get(`${THEME.replace('.json', '.jsonp')}?callback=cb`, { 'accept-encoding': 'gzip' });
    expect(jsonp.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(jsonp.bytes).toString()).toMatch(/^\/\*\*\/cb\(/);
    const small = await get('/nothing/here', { 'accept-encoding': 'gzip' });
    expect(small.status).toBe(404);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
