import { WebhookVerificationError } from '../errors/webhook-verification-error.js';

/**
 * A delivery's body as received, byte for byte: text, bytes (a Node `Buffer` is a `Uint8Array`), or a `Request`
 * (or any body with `arrayBuffer()`, a `Blob` too), which is read once.
 */
export type RawBody = string | ArrayBuffer | ArrayBufferView | Request;

/** How to get the raw body in each framework, for the errors that receive something else. */
const HOW =
  'pass the raw body. Express: express.raw({ type: "application/json" }), then req.body; Next.js: await ' +
  'request.text(); Hono: await c.req.text(); Node http: Buffer.concat(chunks) of the request; or the Request';

/** The `WEBHOOK_BODY` error for a body that is not the raw one, `what` saying what it is instead. */
export function notRaw(what: string): WebhookVerificationError {
  return new WebhookVerificationError('WEBHOOK_BODY', `The webhook body is ${what}: ${HOW}`);
}

/** The bytes of `body`; a `WEBHOOK_BODY` error for anything else (parsed JSON above all). */
export async function bytesOf(body: unknown): Promise<Uint8Array<ArrayBuffer>> {
  const source = body as Partial<Request> | null;
  // Text, bytes and views are read by a `Response`, the shortest way to the bytes of each; a body read before
  // rejects with the runtime's `TypeError` ("Body is unusable").
  if (typeof body === 'string' || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    return new Uint8Array(await new Response(body as BodyInit).arrayBuffer());
  }
  if (typeof source?.arrayBuffer === 'function') return new Uint8Array(await source.arrayBuffer());
  throw notRaw('no text or bytes (parsed JSON?)');
}
