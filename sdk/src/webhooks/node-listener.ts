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
function toRequest(req: NodeWebhookRequest, body: Uint8Array<ArrayBuffer> | string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of typeof value === 'string' ? [value] : (value ?? [])) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  // Only the path matters to the handler; the host header is the client's to set and may be no valid URL.
  const url = new URL(req.url ?? '/', 'http://localhost');
  return new Request(url, { method, headers, body: method === 'GET' || method === 'HEAD' ? null : body });
}

/** The body as received: the bytes a raw or text parser kept, else read from the stream. */
async function rawBodyOf(req: NodeWebhookRequest): Promise<Uint8Array<ArrayBuffer> | string> {
  const { body } = req;
  if (typeof body === 'string') return body;
  // A copy: a `Buffer` may be a view of a pool shared with other requests.
  if (body instanceof Uint8Array) return new Uint8Array(body);
  // Express 5 leaves `body` undefined when no parser ran; Express 4's body-parser `{}` when it skipped the type.
  if (body !== undefined && !(isEmptyObject(body) && (req as { readable?: boolean }).readable !== false)) {
    throw notRaw('an object: a body parser (express.json()?) ran before the webhook route');
  }
  // A Blob joins the chunks, text (a stream with an encoding set) or bytes.
  const chunks: BlobPart[] = [];
  for await (const chunk of req) chunks.push(chunk as BlobPart);
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/**
 * `handler` as a listener of Node's `http.createServer` and as Express middleware (`app.post('/webhooks',
 * toNodeListener(handler))`): it reads the raw body itself, or takes the one `express.raw()` or `express.text()`
 * kept. A body already parsed into an object (`express.json()` ran first) is answered 400 with what to do
 * instead. An unexpected failure goes to Express's `next`, or is answered 500 without Express.
 */
export function toNodeListener(
  handler: WebhookHandler,
  { onError = console.error }: NodeListenerOptions = {},
): (req: NodeWebhookRequest, res: NodeWebhookResponse, next?: (error?: unknown) => void) => Promise<void> {
  return async (req, res, next) => {
    try {
      let response: Response;
      try {
        response = await handler(toRequest(req, await rawBodyOf(req)));
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
    }
  };
}
