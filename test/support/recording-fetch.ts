/**
 * A `fetch` over the network that records what a client sends and what comes back, response bodies counted as
 * they are read, for tests and benchmarks that count requests or bytes.
 */

import { withBody } from '../../sdk/src/http/body-limit.js';

/** One exchange seen by {@link recordingFetch}. */
export interface Exchange {
  method: string;
  url: string;
  /** Request headers. */
  headers: Headers;
  /** Request body, for form posts. */
  body: string;
  status: number;
  /** Bytes of the (decoded) response body read so far. */
  bodyBytes: number;
}

/** What {@link recordingFetch} returns. */
export interface Recorder {
  fetch: typeof fetch;
  /** Every exchange, in the order the requests were answered. */
  exchanges: Exchange[];
  /** The exchanges with the token endpoint (`/oauth/token`). */
  tokenRequests(): Exchange[];
  /** The exchanges with the resource API (`/v1…`). */
  apiRequests(): Exchange[];
}

export function recordingFetch(): Recorder {
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
    return withBody(response, counted);
  };
  const tokenRequests = () => exchanges.filter((e) => new URL(e.url).pathname === '/oauth/token');
  const apiRequests = () => exchanges.filter((e) => new URL(e.url).pathname.startsWith('/v1'));
  return { fetch: recording, exchanges, tokenRequests, apiRequests };
}
