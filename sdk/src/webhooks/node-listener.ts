import { notRaw } from './raw-body.js';
import type { WebhookHandler } from './webhook-handler.js';

/**
 * The parts of Node's `IncomingMessage` (and Express's `Request`) the listener reads, declared here so that the
 * SDK needs no Node types. `body` is what a body parser left, if one ran.
 */
export interface NodeWebhookRequest extends AsyncIterable<Uint8Array | string> {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

/** The parts of Node's `ServerResponse` (and Express's `Response`) the listener writes. */
export interface NodeWebhookResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
}

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /** Told when a body parser had already parsed the body (answered 400). Default `console.error`. */
  onError?: (error: unknown) => void;
}

/** The `Request` of a Node request whose body is `body`. */
function toRequest(
  req: NodeWebhookRequest,
  body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> | string,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of typeof value === 'string' ? [value] : (value ?? [])) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  // Only the path matters to the handler; the host header is the client's to set and may be no valid URL.
  const url = new URL(req.url ?? '/', 'http://localhost');
  const init = { method, headers, body: method === 'GET' || method === 'HEAD' ? null : body, duplex: 'half' };
  // `duplex` (a stream body's) is in Node's and the Fetch standard's `RequestInit`, not yet in TypeScript's DOM types.
  return new Request(url, init as RequestInit);
}

/**
 * The body as received: the bytes a raw or text parser kept, else the request's `chunks` as a stream, read by the
 * handler as far as its `maxBodySize` lets it.
 */
function rawBodyOf(
  req: NodeWebhookRequest,
  chunks: AsyncIterator<Uint8Array | string>,
): ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> | string {
  const { body } = req;
  if (typeof body === 'string') return body;
  // A copy: a `Buffer` may be a view of a pool shared with other requests.
  if (body instanceof Uint8Array) return new Uint8Array(body);
  // Express 5 leaves `body` undefined when no parser ran; Express 4's body-parser `{}` when it skipped the type.
  if (body !== undefined && !(isEmptyObject(body) && (req as { readable?: boolean }).readable !== false)) {
    throw notRaw('an object: a body parser (express.json()?) ran before the webhook route');
  }
  // No `cancel`: ending the iterator would destroy the request and its socket before the answer (a 413) is sent.
  // A high water mark of 0: nothing is read before the handler asks.
  return new ReadableStream(
    {
      async pull(controller) {
        const chunk = await chunks.next();
        // Text when the stream has an encoding set.
        if (chunk.done) controller.close();
        else controller.enqueue(typeof chunk.value === 'string' ? new TextEncoder().encode(chunk.value) : chunk.value);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Reads and drops what the handler left of `chunks` (a body over its limit, or one it never read), as Express's
 * body parsers do: a request read in part stalls its connection, and a keep-alive client's next request on it.
 */
async function drain(chunks: AsyncIterator<unknown>): Promise<void> {
  try {
    while (!(await chunks.next()).done) {}
  } catch {
    // The client went away: nothing left to drain.
  }
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/**
 * `handler` as a listener of Node's `http.createServer` and as Express middleware (`app.post('/webhooks',
 * toNodeListener(handler))`): it reads the raw body itself, or takes the one `express.raw()` or `express.text()`
 * kept. A body already parsed into an object (`express.json()` ran first) is answered 400 with what to do
 * instead. An unexpected failure goes to Express's `next`, or is answered 500 without Express. The handler reads the
 * body as it streams in, as far as its `maxBodySize`; what it leaves is read and dropped after the answer.
 */
export function toNodeListener(
  handler: WebhookHandler,
  { onError = console.error }: NodeListenerOptions = {},
): (req: NodeWebhookRequest, res: NodeWebhookResponse, next?: (error?: unknown) => void) => Promise<void> {
  return async (req, res, next) => {
    const chunks = req[Symbol.asyncIterator]();
    try {
      let response: Response;
      try {
        response = await handler(toRequest(req, rawBodyOf(req, chunks)));
      } catch (error) {
        if ((error as { code?: unknown })?.code !== 'WEBHOOK_BODY') throw error;
        onError(error);
        response = new Response((error as Error).message, { status: 400 });
      }
      res.statusCode = response.status;
      for (const [name, value] of response.headers) res.setHeader(name, value);
      res.end(await response.text());
    } catch (error) {
      if (next) return next(error);
      onError(error);
      res.statusCode = 500;
      res.end();
    } finally {
      await drain(chunks);
    }
  };
}
