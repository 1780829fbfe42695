/**
 * `Expect: 100-continue` (RFC 9110 §10.1.1): the client waits for `100 Continue` before it sends the body. Node
 * sends it at once unless the server listens for `checkContinue`; this shell does, and sends it only when the
 * core asks for the body, so that a request refused before (a body declared over the limit, a missing token) is
 * answered with its final status and the body never travels.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Requests whose client waits for `100 Continue`, until it is sent. */
const awaiting = new WeakSet<IncomingMessage>();

/** Makes `server` hand requests that expect `100 Continue` to its `request` listeners without sending it. */
export function deferContinue(server: Server): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaiting.add(req);
    server.emit('request', req, res);
  });
}

/** Whether the client of `req` still waits for `100 Continue`: it has not sent the body. */
export function awaitsContinue(req: IncomingMessage): boolean {
  return awaiting.has(req);
}

/** Sends `100 Continue` if the client of `req` waits for it: the body is about to be read. */
export function sendContinue(req: IncomingMessage, res: ServerResponse | undefined): void {
  if (!awaiting.delete(req)) return;
  res?.writeContinue();
}
