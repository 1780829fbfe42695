/**
 * What an unauthenticated POST can make a receiver spend before its signature is refused (review finding 1): the
 * body is never spread into a JS array, one HMAC per secret is computed however many signatures the header lists,
 * and `createWebhookHandler` and `toNodeListener` read at most `maxBodySize` bytes, answering 413.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createWebhookHandler,
  type EventOf,
  signTestWebhook,
  toNodeListener,
  verifyWebhook,
} from '@storefront-platform/sdk/webhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedContent } from '../../src/webhooks/signature.js';
import { newSecret, templateUpdated } from './events.js';

const secret = newSecret();
const MiB = 1024 * 1024;
/** Headers that pass every check before the signature's: a current timestamp and a signature of the right form. */
const unsigned = (signatures = 1) => ({
  'webhook-id': 'evt_x',
  'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
  'webhook-signature': Array(signatures).fill('v1,AAAA').join(' '),
});

function receiver(options: { maxBodySize?: number | false } = {}) {
  const updated = vi.fn(async (_event: EventOf<'template.updated'>) => {});
  const onError = vi.fn();
  const handler = createWebhookHandler({ secrets: secret, on: { 'template.updated': updated }, onError, ...options });
  return { handler, updated, onError };
}

/** A signed `template.updated` whose body is padded (with spaces, still its JSON) to `size` bytes. */
async function padded(size: number) {
  const text = `${JSON.stringify(templateUpdated())}\n`;
  return signTestWebhook(text.padEnd(size - 1, ' ') + '\n', secret, { id: 'evt_1' });
}

describe('verifyWebhook', () => {
  it('copies the body into the signed content without iterating it', async () => {
    // A spread iterates; a 16 MB body spread held over 1 GB, a 128 MB one crashed the process.
    const body = new Uint8Array([1, 2, 3]);
    body[Symbol.iterator] = () => {
      throw new Error('the body was iterated');
    };
    const content = new Uint8Array(await signedContent('evt_1', '1', body, '\n'));
    expect([...content]).toEqual([...new TextEncoder().encode('evt_1.1.'), 1, 2, 3, 10]);
  });

  it('computes one HMAC per secret, however many signatures the header lists', async () => {
    const sign = vi.spyOn(crypto.subtle, 'sign');
    const verify = vi.spyOn(crypto.subtle, 'verify');
    try {
      const body = new Uint8Array(64 * 1024).fill(97);
      await expect(verifyWebhook(body, unsigned(2000), [secret, newSecret()])).rejects.toMatchObject({
        code: 'WEBHOOK_SIGNATURE',
      });
      // Two secrets, each over the body as received and with the newline a re-serialised body lost.
      expect(sign.mock.calls.length + verify.mock.calls.length).toBe(4);
    } finally {
      sign.mockRestore();
      verify.mockRestore();
    }
  });
});

describe('createWebhookHandler: maxBodySize', () => {
  it('answers 413 to a body over 1 MiB, reading no further than the limit', async () => {
    const { handler, updated, onError } = receiver();
    let sent = 0;
    // 64 KiB at a time, 16 MiB in all: a reader that does not stop reads it all.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
        if (sent === 16 * MiB) controller.close();
      },
    });
    const request = new Request('http://app.test/', {
      method: 'POST',
      body: stream,
      headers: unsigned(),
      duplex: 'half',
    } as RequestInit);
    const response = await handler(request);
    expect([response.status, await response.text()]).toEqual([
      413,
      'The webhook body is over the 1048576 bytes this receiver reads',
    ]);
    // The limit and the chunk that passed it, give or take what the stream had queued.
    expect(sent).toBeLessThan(MiB + 4 * 64 * 1024);
    expect(onError).toHaveBeenCalledWith(expect.any(RangeError), { status: 413, id: 'evt_x' });
    expect(updated).not.toHaveBeenCalled();
  });

  it('answers 413 at once to a Content-Length over the limit, and takes a body up to it', async () => {
    const { handler, updated } = receiver({ maxBodySize: 4096 });
    const pulled = vi.fn();
    const body = new ReadableStream({ pull: pulled }, { highWaterMark: 0 });
    const headers = { ...unsigned(), 'content-length': '4097' };
    const request = new Request('http://app.test/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
    expect((await handler(request)).status).toBe(413);
    expect(pulled).not.toHaveBeenCalled();

    const fits = await padded(4096);
    expect(fits.body.length).toBe(4096);
    expect((await handler(new Request('http://app.test/', { method: 'POST', ...fits }))).status).toBe(204);
    expect(updated).toHaveBeenCalledOnce();
  });

  it('reads any size with maxBodySize: false', async () => {
    const { handler, updated } = receiver({ maxBodySize: false });
    const large = await padded(2 * MiB);
    expect((await handler(new Request('http://app.test/', { method: 'POST', ...large }))).status).toBe(204);
    expect(updated).toHaveBeenCalledOnce();
  });

  it('refuses a limit that is no positive whole number at once (NaN from an unset variable would mean none)', () => {
    for (const maxBodySize of [Number.NaN, 0, -1, 1.5]) {
      expect(() => receiver({ maxBodySize })).toThrow(/maxBodySize must be a positive whole number/);
    }
  });
});

describe('toNodeListener: maxBodySize', () => {
  let server: Server | undefined;
  afterEach(() => {
    // The client's keep-alive sockets would hold `close` for seconds.
    server?.closeAllConnections();
    return new Promise((done) => (server ? server.close(done) : done(undefined)));
  });

  it('answers 413 to a body over the handler limit, declared or streamed, and keeps serving', async () => {
    const { handler, updated } = receiver({ maxBodySize: 64 * 1024 });
    server = createServer(toNodeListener(handler));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;

    const tooLarge = await padded(2 * MiB);
    const refused = await fetch(url, { method: 'POST', ...tooLarge });
    expect([refused.status, await refused.text()]).toEqual([
      413,
      'The webhook body is over the 65536 bytes this receiver reads',
    ]);
    // Chunked, no length declared: refused once 64 KiB were read, the rest read and dropped after the answer.
    const streamed = new Blob([tooLarge.body]).stream();
    const init = { method: 'POST', body: streamed, headers: tooLarge.headers, duplex: 'half' } as RequestInit;
    expect((await fetch(url, init)).status).toBe(413);
    const fits = await padded(64 * 1024);
    expect((await fetch(url, { method: 'POST', ...fits })).status).toBe(204);
    expect(updated).toHaveBeenCalledOnce();
  });
});
