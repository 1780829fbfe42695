import { WebhookVerificationError } from '../errors/webhook-verification-error.js';

/**
 * A delivery's body as received, byte for byte: text, bytes (a Node `Buffer` is a `Uint8Array`), or a `Request`
 * (or any body with `arrayBuffer()`, a `Blob` too), which is read once.
 */
export type RawBody = string | ArrayBuffer | ArrayBufferView | Request;

/** How to get the raw body in each framework, for the errors that receive something else. */
const HOW =
  'pass the raw body as received. Express: express.raw({ type: "application/json" }) on the route, then req.body; ' +
  'Next.js route handler: await request.text(); Hono: await c.req.text(); Node http: collect the chunks ' +
  '(for await (const c of req) chunks.push(c)) and pass Buffer.concat(chunks); or pass the Request itself';

/** The `WEBHOOK_BODY` error for a body that is not the raw one, `what` saying what it is instead. */
export function notRaw(what: string): WebhookVerificationError {
  return new WebhookVerificationError('WEBHOOK_BODY', `The webhook body is ${what}: ${HOW}`);
}

/** The bytes of `body`; a `WEBHOOK_BODY` error for anything else (parsed JSON above all). */
export async function bytesOf(body: unknown): Promise<Uint8Array> {
  if (typeof body === 'string') {
    // What a template literal or `String()` makes of a parsed body.
    if (body === '[object Object]') throw notRaw('"[object Object]", an object made text');
    return new TextEncoder().encode(body);
  }
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  const source = body as Partial<Request> | null;
  if (typeof source?.arrayBuffer === 'function') {
    if (source.bodyUsed) throw notRaw('a Request whose body was already read (read it once, as text, and pass that)');
    return new Uint8Array(await source.arrayBuffer());
  }
  throw notRaw(`${body === null ? 'null' : typeof body} (parsed JSON?), not text or bytes`);
}
