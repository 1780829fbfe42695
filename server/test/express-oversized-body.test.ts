/**
 * A body the core does not read to its end (past the shell cap, or ignored): the shell answers while the client
 * may still be writing, then reads and discards the rest, so that the client reads the answer instead of a write
 * error (EPIPE, ECONNRESET). Repeated, because the failure is a race between the client's writes and a close.
 */
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyTooLargeError } from '../src/core/body-limit.js';
import type { CoreHandler, CoreResponse } from '../src/core/types.js';
import { createExpressApp } from '../src/express/app.js';

const MiB = 1024 * 1024;
const ROUNDS = 15;
/** Large enough to be gzipped off the event loop, which delays the end of the answer. */
const BIG_ANSWER = JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => ({ id: String(i) })) });

/** Reads the body like every write endpoint does, and answers 413 past the cap; `/ignore` does not read it. */
const handle: CoreHandler = async (request): Promise<CoreResponse> => {
  if (request.url.pathname === '/ignore') {
    // Sometimes at once (a 415 on the content type), sometimes after a store write, while the client streams.
    if (request.url.search === '?slow') await new Promise((resolve) => setTimeout(resolve, 5));
    return { status: 201, headers: { 'content-type': 'application/json' }, body: BIG_ANSWER };
  }
  try {
    await request.body();
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    return { status: 413, headers: { 'content-type': 'application/json' }, body: '{"message":"too large"}' };
  }
  return { status: 200, headers: {}, body: 'ok' };
};

let server: Server;
let url: string;
let ignoreUrl: string;
beforeAll(async () => {
  const app = createExpressApp({ handle, origin: 'http://storefront.test' });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`;
  ignoreUrl = url.replace('/upload', '/ignore');
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A PUT through node:http, streamed in 64 KiB writes; resolves with the status and body once both ends finish. */
function nodePut(size: number, chunked: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = chunked ? {} : { 'content-length': size };
    const req = httpRequest(url, { method: 'PUT', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 120);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

describe('an upload past the shell cap', () => {
  it.each([3 * MiB, 5 * MiB])('gets the 413 with fetch (%d bytes), every time', async (size) => {
    const body = new Uint8Array(size);
    for (let i = 0; i < ROUNDS; i++) {
      const response = await fetch(url, { method: 'PUT', body });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ message: 'too large' });
    }
  });

  it.each([
    [3 * MiB, false],
    [5 * MiB, false],
    [5 * MiB, true],
  ])('gets the 413 with node:http (%d bytes, chunked: %s), every time', async (size, chunked) => {
    for (let i = 0; i < ROUNDS; i++) {
      expect(await nodePut(size, chunked)).toEqual({ status: 413, body: '{"message":"too large"}' });
    }
  });

  it('gets the answers to streamed forms the core ignores, every time', async () => {
    for (let i = 0; i < 50; i++) {
      // An empty form too: its closing boundary is still streamed after the headers.
      const form = new FormData();
      if (i % 2) form.append('file', new Blob([new Uint8Array(i * 100)]), 'a.png');
      const response = await fetch(ignoreUrl + (i % 3 ? '' : '?slow'), { method: 'POST', body: form });
      expect([response.status, await response.text()]).toEqual([201, BIG_ANSWER]);
    }
  });

  it('keeps serving on the same connection once the rest is discarded', async () => {
    expect((await fetch(url, { method: 'PUT', body: new Uint8Array(3 * MiB) })).status).toBe(413);
    const after = await fetch(url, { method: 'PUT', body: 'small' });
    expect([after.status, await after.text()]).toEqual([200, 'ok']);
  });
});
