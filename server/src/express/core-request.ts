/**
 * An Express request as the core's {@link CoreRequest}: a header reader over Node's own header object
 * and a body read on demand. No `Request` object per call: this is the hot path.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Request as ExpressRequest } from 'express';
import { BodyAbortedError } from '../core/body-aborted.js';
import { BodyTooLargeError, MAX_BODY_BYTES } from '../core/body-limit.js';
import type { CoreRequest, HeaderReader } from '../core/types.js';
import { sendContinue } from './expect-continue.js';
import { clientAddressOf, type TrustedProxies } from './forwarded-for.js';

const EMPTY = new Uint8Array(0);

/** A request as a `node:http` server hands it out: with its method and target, which a client request lacks. */
export type ServerRequest = IncomingMessage & { method: string; url: string };

/** Node lower-cases header names and keeps repeated ones (other than a few) joined; arrays only for `set-cookie`. */
class NodeHeaders implements HeaderReader {
  constructor(private readonly headers: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

/**
 * Buffers the body up to the shell cap; past it, stops reading and throws {@link BodyTooLargeError}. A body
 * declared over the cap is refused before a client that expects `100 Continue` is told to send it; a client
 * that leaves mid-body is a {@link BodyAbortedError}.
 */
function readBody(req: ExpressRequest | IncomingMessage, res: ServerResponse | undefined): Promise<Uint8Array> {
  const declared = req.headers['content-length'];
  if (declared === undefined && req.headers['transfer-encoding'] === undefined) return Promise.resolve(EMPTY);
  if (Number(declared) > MAX_BODY_BYTES) return Promise.reject(new BodyTooLargeError());
  sendContinue(req, res);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        cleanup();
        req.pause();
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      resolve(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
    };
    // Node's only error on a request stream is the client leaving before its end (`aborted`, ECONNRESET).
    const onError = (error: Error) => {
      cleanup();
      reject(new BodyAbortedError({ cause: error }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * The core request of `req`. `origin` (the server's own, e.g. `http://127.0.0.1:4000`) makes the URL
 * absolute; the Host header is not trusted for it. `undefined` when the request target is not a URL.
 */
export function toCoreRequest(
  req: ExpressRequest | ServerRequest,
  origin: string,
  trustedProxies: TrustedProxies = [],
  /** The response of `req` (Express links it as `req.res`; a plain `node:http` request does not). */
  res: ServerResponse | undefined = (req as ExpressRequest).res,
): CoreRequest | undefined {
  let url: URL;
  try {
    // Origin-form targets are appended, not resolved, so that `//host/path` stays a path on this server.
    url = new URL(req.url.startsWith('/') ? origin + req.url : req.url);
  } catch {
    return undefined;
  }
  return new NodeCoreRequest(req, url, res, trustedProxies);
}

/** A class rather than an object literal of closures: one is made per request, and most never read their body. */
class NodeCoreRequest implements CoreRequest {
  readonly method: string;
  readonly headers: HeaderReader;
  /** Read as the request arrives: once the connection is gone, Node no longer knows the peer. */
  readonly clientAddress: string | undefined;
  #body: Promise<Uint8Array> | undefined;

  constructor(
    private readonly req: ExpressRequest | ServerRequest,
    readonly url: URL,
    private readonly res: ServerResponse | undefined,
    trustedProxies: TrustedProxies,
  ) {
    this.method = req.method;
    this.headers = new NodeHeaders(req.headers);
    this.clientAddress = clientAddressOf(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
  }

  body(): Promise<Uint8Array> {
    this.#body ??= readBody(this.req, this.res);
    return this.#body;
  }
}

/** The most bytes of an unread body {@link discardUnreadBody} reads before it gives up on the connection. */
const MAX_DISCARDED_BYTES = 16 * 1024 * 1024;
/** How long {@link discardUnreadBody} waits for the end of an unread body before it gives up on the connection. */
const DISCARD_TIMEOUT_MS = 5000;

/** Whether the body was left (partly) unread, e.g. too large, or of a request answered without reading it. */
export function bodyLeftUnread(req: IncomingMessage): boolean {
  return (
    !req.readableEnded &&
    (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined)
  );
}

/**
 * Reads and drops the rest of a body the core left unread, so that the connection can carry the next request.
 * Closing instead while the client still writes makes its writes fail (EPIPE, ECONNRESET) before it reads the
 * answer already sent; so this lingers, bounded in bytes and time, then destroys the connection.
 * Call it before writing the response: Node would otherwise drain without bound once the response is sent.
 */
export function discardUnreadBody(req: IncomingMessage): void {
  let discarded = 0;
  const giveUp = () => {
    cleanup();
    req.socket.destroy();
  };
  const timer = setTimeout(giveUp, DISCARD_TIMEOUT_MS);
  timer.unref();
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARDED_BYTES) giveUp();
  };
  const cleanup = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', cleanup);
    req.off('close', cleanup);
  };
  req.on('data', onData);
  req.once('end', cleanup);
  req.once('close', cleanup);
  req.resume();
}
