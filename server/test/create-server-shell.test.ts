import type { Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyTooLargeError, MAX_BODY_BYTES } from '../src/core/body-limit.js';
import type { CoreHandler, CoreResponse } from '../src/core/types.js';
import { createExpressApp } from '../src/express/app.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function start(handle: CoreHandler, log?: (line: string) => void): Promise<string> {
  const app = createExpressApp({ handle, origin: 'http://storefront.test:4000', ...(log ? { log } : {}) });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Echoes what the core saw. */
const echo: CoreHandler = async (request): Promise<CoreResponse> => {
  let body: string;
  try {
    body = new TextDecoder().decode(await request.body());
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { status: 413, headers: {} };
    throw error;
  }
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-echo': 'yes' },
    body: JSON.stringify({
      method: request.method,
      url: request.url.href,
      accept: request.headers.get('Accept'),
      missing: request.headers.get('x-missing'),
      body,
    }),
  };
};

describe('Express shell', () => {
  it('hands the core the method, absolute URL, headers and body, and sends back its response', async () => {
    const url = await start(echo);
    const response = await fetch(`${url}/v1/things.json?q=a%20b`, {
      method: 'POST',
      headers: { accept: 'application/hal+json', 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-echo')).toBe('yes');
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(await response.json()).toEqual({
      method: 'POST',
      url: 'http://storefront.test:4000/v1/things.json?q=a%20b',
      accept: 'application/hal+json',
      missing: null,
      body: 'hello',
    });
  });

  it('keeps a path that starts with // on this server', async () => {
    const url = await start(echo);
    const seen = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(url);
      httpRequest({ host: '127.0.0.1', port, path: '//evil.example/x' }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text).url));
      })
        .on('error', reject)
        .end();
    });
    expect(seen).toBe('http://storefront.test:4000//evil.example/x');
  });

  it('refuses a body past the shell cap, declared or streamed, and keeps serving', async () => {
    const url = await start(echo);
    const big = new Uint8Array(MAX_BODY_BYTES + 1);
    expect((await fetch(url, { method: 'PUT', body: big })).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new Uint8Array(MAX_BODY_BYTES / 2));
        controller.close();
      },
    });
    const streamed = await fetch(url, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await fetch(url, { method: 'PUT', body: 'ok' })).status).toBe(200);
  });

  it('gzips a large response when the client accepts it', async () => {
    const text = 'x'.repeat(5000);
    const url = await start(async () => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: text }));
    const gzipped = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      const { port } = new URL(url);
      httpRequest({ host: '127.0.0.1', port, path: '/', headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(gzipped.encoding).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(text);
    const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(text);
  });

  it('sends no body on 204 and 304, nor on HEAD', async () => {
    const url = await start(async (request) => ({
      status: request.url.pathname === '/304' ? 304 : request.url.pathname === '/204' ? 204 : 200,
      headers: { etag: '"1"' },
      body: 'ignored',
    }));
    for (const path of ['/204', '/304']) {
      const response = await fetch(url + path);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe('"1"');
    }
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers 500 without details when the core throws, and keeps serving', async () => {
    const original = console.error;
    const logged: unknown[] = [];
    console.error = (error: unknown) => logged.push(error);
    try {
      const url = await start(async (request) => {
        if (request.url.pathname === '/boom') throw new Error('secret detail');
        return { status: 200, headers: {}, body: 'fine' };
      });
      const response = await fetch(`${url}/boom`);
      expect(response.status).toBe(500);
      expect(await response.text()).not.toContain('secret detail');
      expect(logged).toHaveLength(1);
      expect(await (await fetch(url)).text()).toBe('fine');
    } finally {
      console.error = original;
    }
  });

  it('logs one line per request when asked to, without secrets from the query', async () => {
    const lines: string[] = [];
    const url = await start(
      async () => ({ status: 201, headers: {} }),
      (line) => lines.push(line),
    );
    await fetch(`${url}/v1/shops.json?page=2`, { method: 'POST' });
    await fetch(`${url}/v1/shops.jsonp?callback=cb&access_token=s3cret&x=1`);
    await fetch(`${url}/oauth/authorize?refresh_token=s1&code_verifier=s2&client_assertion=s3&id_token=s4&code=s5`);
    await fetch(`${url}/v1/shops.jsonp?callback=cb&access%5Ftoken=s6&%70assword=s7`);
    await fetch(`${url}/v1/shops.jsonp?ACCESS_TOKEN=s8&callback=cb;access_token=s9`);
    expect(lines).toHaveLength(5);
    // The shell names an answer its core left unnamed.
    expect(lines[0]).toMatch(/^POST \/v1\/shops\.json\?page=2 201 \d+\.\dms id=[0-9a-f-]{36}$/);
    expect(lines[1]).toMatch(/^GET \/v1\/shops\.jsonp\?callback=cb&access_token=\[REDACTED\]&x=1 201 /);
    expect(lines.join('\n')).not.toMatch(/s\d/);
    expect(lines[3]).toMatch(
      /^GET \/v1\/shops\.jsonp\?callback=cb&access%5Ftoken=\[REDACTED\]&%70assword=\[REDACTED\] /,
    );
    expect(lines[4]).toMatch(
      /^GET \/v1\/shops\.jsonp\?ACCESS_TOKEN=\[REDACTED\]&callback=cb;access_token=\[REDACTED\] /,
    );
  });
});
