/**
 * The shell around the core, on `node:http` alone: it converts, compresses and logs; the core decides everything
 * else (routes, auth, caching headers, errors, static files). `createServer` listens with it; `app.ts` wraps the
 * same work in an Express application for those who mount the server in theirs (Express is loaded only there:
 * a start of the server does not pay for it).
 */

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { requestIdOf } from '../core/request-id.js';
import type { CoreHandler, CoreResponse } from '../core/types.js';
import type { ExplorerHandler } from '../explorer/handler.js';
import { gzipEtag } from '../http/entity.js';
import { ConnectionResetFault, TruncatedFault } from '../sandbox/shell-fault.js';
import { SlowBodyFault, trickle } from '../sandbox/slow-body.js';
import { requestLine } from '../shared/request-line.js';
import { bodyLeftUnread, discardUnreadBody, type ServerRequest, toCoreRequest } from './core-request.js';
import { awaitsContinue } from './expect-continue.js';
import type { TrustedProxies } from './forwarded-for.js';
import { acceptsGzip, GzipCache, isGzippable, varyOnEncoding } from './gzip.js';
import { shellError } from './shell-error.js';

/** Options of {@link createRequestListener} and `createExpressApp`. */
export interface ExpressAppOptions {
  /** The core. */
  handle: CoreHandler;
  /** The server's origin, e.g. `http://127.0.0.1:4000`; request URLs are made absolute against it. */
  origin: string;
  /** Receives one line per finished request (`GET /v1/ 200 1.2ms id=…`); absent: no request log. */
  log?: (line: string) => void;
  /** Serves the API explorer under `/explorer` (see `createServer`); absent: no explorer. */
  explorer?: ExplorerHandler;
  /** Reverse proxies whose `X-Forwarded-For` names the client (see `forwarded-for.ts`). Default: none. */
  trustProxy?: TrustedProxies;
  /** Aborted when the server starts to stop (`CoreContext.stopping`): a `slow_body` answer then sends its rest at once. */
  stopping?: AbortSignal;
}

/**
 * Writes the core's response, gzipped when the client accepts it and it is worth it. A client that does not
 * accept gzip costs a header lookup: no middleware wraps the response stream. The head goes out in one
 * `writeHead` with every field, cheaper than a `setHeader` per field, and the common paths make no closure: this
 * runs for every request.
 */
function send(req: ServerRequest, res: ServerResponse, response: CoreResponse, gzipCache: GzipCache): void {
  const { status, body } = response;
  let { headers } = response;
  // The core names each of its answers; the explorer's, the control API's and the shell's own get their name here.
  if (headers['x-request-id'] === undefined) headers = { ...headers, 'x-request-id': requestIdOfReq(req) };
  // A body we did not read to its end (too large, or ignored) would be taken for the next request. One the
  // client has not sent, waiting for `100 Continue`, never comes: the connection closes after this answer.
  if (awaitsContinue(req)) res.setHeader('connection', 'close');
  else if (bodyLeftUnread(req)) discardUnreadBody(req);
  if (body === undefined || status === 204 || status === 304) {
    writeHead(res, status, headers).end();
    return;
  }
  if (!isGzippable(response, body, req.method)) {
    finish(req, res, status, headers, body);
    return;
  }
  // Caches must keep the two encodings apart, whichever this client gets (API responses say so already).
  const vary = varyOnEncoding(headers.vary);
  const varied = vary === headers.vary ? headers : { ...headers, vary };
  if (!acceptsGzip(req.headers['accept-encoding'])) {
    finish(req, res, status, varied, body);
    return;
  }
  const zipped = gzipCache.gzip(body);
  if (zipped instanceof Uint8Array) finish(req, res, status, gzipped(varied), zipped);
  else {
    zipped.then(
      (bytes) => finish(req, res, status, gzipped(varied), bytes),
      (error: unknown) => {
        console.error(error);
        finish(req, res, status, varied, body);
      },
    );
  }
}

/** The id of a request the core did not name: the client's `X-Request-Id` when sane, else one of ours. */
function requestIdOfReq(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return requestIdOf(typeof given === 'string' ? given : null);
}

/** {@link shellError} for `req`, named by its id. */
const shellErrorOf = (req: ServerRequest, status: number, message: string) =>
  shellError(req.method, status, message, requestIdOfReq(req));

/**
 * The `X-Request-Id` each answer went with, for its log line: the fields given to `writeHead` are sent, not kept
 * where `getHeader` would find them.
 */
const sentIds = new WeakMap<ServerResponse, string>();

/** `res.writeHead`, remembering the answer's request id. */
function writeHead(res: ServerResponse, status: number, headers: Record<string, string>): ServerResponse {
  const id = headers['x-request-id'];
  if (id !== undefined) sentIds.set(res, id);
  return res.writeHead(status, headers);
}

/** The head of the gzip coding of a representation whose head is `headers`. */
function gzipped(headers: Record<string, string>): Record<string, string> {
  const { etag } = headers;
  const zipped: Record<string, string> = { ...headers, 'content-encoding': 'gzip' };
  if (etag !== undefined) zipped.etag = gzipEtag(etag);
  return zipped;
}

/** Sends the head, with the length of `bytes`, and `bytes`; a HEAD gets the head a GET would get, and no body. */
function finish(
  req: ServerRequest,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  bytes: string | Uint8Array,
): void {
  const length = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength;
  // A copy: one headers object may answer many requests (the explorer's files each have theirs).
  writeHead(res, status, { ...headers, 'content-length': String(length) });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/**
 * One line per request, also for a request whose client left before its answer was sent (`aborted` for the
 * status): anyone can cause that, so it is never more than its line. Secrets in the query (JSONP requests carry
 * `access_token` in the URL) never reach the log.
 */
export function logRequest(log: (line: string) => void, req: IncomingMessage, res: ServerResponse, url: string): void {
  const start = performance.now();
  res.once('close', () => {
    const status = res.writableFinished ? res.statusCode : 'aborted';
    // The answer's `X-Request-Id` (sane by construction: `core/request-id.ts`); none when the client left before it.
    const id = sentIds.get(res);
    const line = `${requestLine(req.method ?? 'GET', url)} ${status} ${(performance.now() - start).toFixed(1)}ms`;
    log(id === undefined ? line : `${line} id=${id}`);
  });
}

/** Answers one request through the core (or the explorer): the whole work of the shell per request. */
export async function serve(
  req: ServerRequest,
  res: ServerResponse,
  options: ExpressAppOptions,
  gzipCache: GzipCache,
): Promise<void> {
  const { handle, origin, explorer, trustProxy = [] } = options;
  const request = toCoreRequest(req, origin, trustProxy, res);
  if (!request) return send(req, res, shellErrorOf(req, 400, 'The request target is not a valid URL'), gzipCache);
  let response: CoreResponse;
  try {
    response = await (explorer?.(request) ?? handle(request));
  } catch (error) {
    // A fault rule of the sandbox asked for the connection to be cut, with nothing sent.
    if (error instanceof ConnectionResetFault) {
      req.socket.destroy();
      return;
    }
    // A fault rule asked for the answer cut short: its headers, part of its body, then the connection ends.
    if (error instanceof TruncatedFault) {
      const { status, headers, body } = error.response;
      writeHead(res, status, { ...headers, 'content-length': String((body as Uint8Array).byteLength) });
      res.write(error.bytes, () => req.socket.destroy());
      return;
    }
    // A fault rule asked for a slow body: the headers now, the body over time, as real writes on the socket.
    if (error instanceof SlowBodyFault) return sendSlowly(req, res, error, options.stopping);
    // The core answers bad input itself; reaching this is a bug, so log it and keep serving.
    console.error(error);
    response = shellErrorOf(req, 500, 'Internal server error');
  }
  send(req, res, response, gzipCache);
}

/**
 * The answer of a `slow_body` fault: uncompressed, its length announced, its body trickling until the client leaves,
 * or until the server starts to stop, which sends the rest at once (a stop waits for no fault rule's pace).
 */
async function sendSlowly(
  req: ServerRequest,
  res: ServerResponse,
  fault: SlowBodyFault,
  stopping?: AbortSignal,
): Promise<void> {
  const { status, headers, body } = fault.response;
  if (awaitsContinue(req)) res.setHeader('connection', 'close');
  else if (bodyLeftUnread(req)) discardUnreadBody(req);
  writeHead(res, status, { ...headers, 'content-length': String(body.byteLength) });
  res.flushHeaders();
  const left = new AbortController();
  res.once('close', () => left.abort());
  const paced = stopping ? AbortSignal.any([left.signal, stopping]) : left.signal;
  let sent = 0;
  for await (const chunk of trickle(body, fault.bytesPerSecond, paced)) {
    res.write(chunk);
    sent += chunk.byteLength;
  }
  if (!left.signal.aborted) res.end(body.subarray(sent));
}

/** What escapes {@link serve} (writing a response the core got wrong, say): a 500, or the connection cut. */
export function failed(error: unknown, req: ServerRequest, res: ServerResponse, gzipCache: GzipCache): void {
  console.error(error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  send(req, res, shellErrorOf(req, 500, 'Internal server error'), gzipCache);
}

/**
 * The shell as a plain `node:http` request listener: what `createExpressApp`'s app does for each request,
 * without Express's routing and request decoration, which the core does not use and which cost more server CPU
 * per request than the core's own work on a cached representation. What `createServer` listens with.
 */
export function createRequestListener(options: ExpressAppOptions): RequestListener {
  const gzipCache = new GzipCache();
  const { log } = options;
  return (incoming, res) => {
    const req = incoming as ServerRequest;
    if (log) logRequest(log, req, res, req.url);
    serve(req, res, options, gzipCache).catch((error: unknown) => failed(error, req, res, gzipCache));
  };
}
