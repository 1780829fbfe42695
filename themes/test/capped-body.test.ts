/** Answers are read up to a limit: refused by Content-Length before reading, or as soon as the bytes pass it. */
import { describe, expect, it } from 'vitest';
import { cappedResponse, OversizeError, readCapped } from '../src/theme/capped-body.js';

/** A body of `chunks` chunks of 1000 bytes, counting how many were pulled. */
function endless(chunks = Number.POSITIVE_INFINITY) {
  const pulled = { count: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.count++ >= chunks) controller.close();
      else controller.enqueue(new Uint8Array(1000));
    },
  });
  return { body, pulled };
}

describe('capped answers', () => {
  it('reads a body within the limit', async () => {
    const { body } = endless(5);
    expect((await readCapped(new Response(body), 5000)).byteLength).toBe(5000);
  });

  it('stops reading an endless body just past the limit', async () => {
    const { body, pulled } = endless();
    await expect(readCapped(new Response(body), 10_000)).rejects.toBeInstanceOf(OversizeError);
    expect(pulled.count).toBeLessThan(20);
  });

  it('refuses by Content-Length before reading a byte', async () => {
    const { body, pulled } = endless();
    const response = new Response(body, { headers: { 'content-length': '104857600' } });
    expect(() => cappedResponse(response, 65_536)).toThrow(/over 65536 bytes/);
    expect(pulled.count).toBeLessThanOrEqual(1);
  });

  it('keeps status, headers and URL, and fails the JSON read past the limit', async () => {
    const response = new Response(JSON.stringify({ body: 'x'.repeat(2000) }), {
      status: 201,
      headers: { 'content-type': 'application/json' },
    });
    Object.defineProperty(response, 'url', { value: 'http://api.test/v1/x' });
    const capped = cappedResponse(response, 1000);
    expect([capped.status, capped.headers.get('content-type'), capped.url]).toEqual([
      201,
      'application/json',
      'http://api.test/v1/x',
    ]);
    await expect(capped.json()).rejects.toThrow('the answer of http://api.test/v1/x is over 1000 bytes');
  });
});
