/**
 * How long the reference server waits for its clients, chosen rather than inherited from Node's defaults
 * (60 s for headers, 5 min for a whole request), so that idle and slow connections, each holding a socket
 * and some memory, are let go: a client that trickles its headers in byte by byte (Slowloris) is cut off
 * after `headersMs` with a 408.
 */
import type { ServerOptions } from 'node:http';

/** Timeouts of the HTTP server, in milliseconds. Every field is optional. */
export interface ServerTimeouts {
  /** From the connection (or the end of the previous request) to the end of the request's headers. Default 10 000. */
  headersMs?: number;
  /**
   * From the start of a request to the end of its body. Default 60 000: the largest body the server reads
   * (2 MiB) in under a minute needs about 300 kbit/s.
   */
  requestMs?: number;
  /**
   * How long a keep-alive connection may idle between requests. Default 5 000: longer than the 4 s after which
   * Node's `fetch` (undici) gives an idle connection up, so that the client, not the server, closes it and no
   * request is sent on a connection the server is closing.
   */
  keepAliveMs?: number;
}

export const DEFAULT_TIMEOUTS: Required<ServerTimeouts> = { headersMs: 10_000, requestMs: 60_000, keepAliveMs: 5_000 };

/**
 * Node's options for `timeouts`. Node checks the headers and request timeouts on an interval (30 s by default,
 * which would let a slow client run three times over the 10 s); checking at a fifth of the headers timeout, at
 * most every second, keeps the cut within 20% of it.
 */
export function timeoutOptions(timeouts: ServerTimeouts = {}): ServerOptions {
  const { headersMs, requestMs, keepAliveMs } = { ...DEFAULT_TIMEOUTS, ...timeouts };
  for (const [name, value] of Object.entries({ headersMs, requestMs, keepAliveMs })) {
    if (!(Number.isInteger(value) && value > 0)) {
      throw new RangeError(`timeouts.${name} must be a positive whole number of milliseconds, got ${value}`);
    }
  }
  if (headersMs > requestMs) {
    throw new RangeError(`timeouts.headersMs (${headersMs}) must not exceed timeouts.requestMs (${requestMs})`);
  }
  return {
    headersTimeout: headersMs,
    requestTimeout: requestMs,
    keepAliveTimeout: keepAliveMs,
    connectionsCheckingInterval: Math.min(1000, Math.ceil(headersMs / 5)),
  };
}
