import { type IncomingHttpHeaders, request } from 'node:http';

/** How a request on a connection of its own ended. */
export interface Outcome {
  /** The response's status, when one came in time. */
  status?: number;
  /** Why there was none: the error's code (`ECONNRESET`…), or that it did not come within the time given. */
  error?: string;
  /** Milliseconds from sending to the end of the response or the error. */
  ms: number;
}

/**
 * GET `url` on a new TCP connection (no keep-alive agent: a pooled connection that a server process had accepted
 * is lost with that process, which is not what the callers measure); given up after `withinMs`.
 */
export function getOnNewConnection(url: string, headers: IncomingHttpHeaders, withinMs: number): Promise<Outcome> {
  const sent = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent: false, headers }, (response) => {
      response.resume();
      response.once('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode, ms: performance.now() - sent });
      });
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${withinMs} ms`)), withinMs);
    req.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ error: error.code ?? error.message, ms: performance.now() - sent });
    });
    req.end();
  });
}
