/**
 * The real reference server on port 0, with a clock the tests move by hand, and a `fetch` that records what the
 * SDK sends and what comes back.
 */
import { createServer, type ServerCredentials, type StorefrontServer } from 'storefront-sdk/server';
import { type ManualClock, manualClock } from '../../../test/support/manual-clock.js';

export interface Harness {
  server: StorefrontServer;
  credentials: ServerCredentials & { password: string };
  clock: ManualClock;
}

/** Starts a seeded server whose tokens live `tokenTtl` seconds of `clock` time. */
export async function startServer(tokenTtl = 60): Promise<Harness> {
  const clock = manualClock();
  const server = await createServer({ port: 0, products: 12, tokenTtl, clock, demo: { password: 'demo password' } });
  const credentials = server.credentials;
  if (!credentials?.password) throw new Error('the seeded server has no demo credentials');
  return { server, clock, credentials: { ...credentials, password: credentials.password } };
}

/** One exchange seen by {@link recordingFetch}. */
export interface Exchange {
  method: string;
  url: string;
  /** Request headers. */
  headers: Headers;
  /** Request body, for form posts. */
  body: string;
  status: number;
  /** Bytes of the (decoded) response body. */
  bodyBytes: number;
}

/** A `fetch` over the network that records every exchange, response bodies counted as they are read. */
export function recordingFetch() {
  const exchanges: Exchange[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? await request.clone().text() : '';
    const response = await fetch(request);
    const exchange: Exchange = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body,
      status: response.status,
      bodyBytes: 0,
    };
    exchanges.push(exchange);
    if (!response.body) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          exchange.bodyBytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    const copy = new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // A Response built by hand has no URL; the SDK resolves relative links against it.
    Object.defineProperty(copy, 'url', { value: response.url });
    return copy;
  };
  const tokenRequests = () => exchanges.filter((e) => new URL(e.url).pathname === '/oauth/token');
  const apiRequests = () => exchanges.filter((e) => new URL(e.url).pathname.startsWith('/v1'));
  return { fetch: recording, exchanges, tokenRequests, apiRequests };
}
